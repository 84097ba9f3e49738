// The production rehearsal's deployment: what docs/operators/deploy.md's steps make on this machine (its
// folders, CA, ports, database, identity provider, callback receiver, nginx, the guide's background commands
// and the browser), filled in as the steps go, and the guide's commands run against it.
//
// What the rehearsal changes in the guide's commands, and nothing else (`local()` below): its temporary
// directories for /etc/rx-transfer, /var/backups/rx and /etc/ssl/rx-transfer, this checkout for
// /srv/rx-transfer, free ports for 443, 80, 3000, 3001 and 3999 (so the public URL carries a port), its
// database for the example DATABASE_URL, and its receiver for the example callback URL.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, TestInfo } from "@playwright/test";
import pg from "pg";
import { guideStep, type GuideStep } from "../../deploy-guide";
import { startCallbackReceiver, type CallbackReceiver } from "../../../tests/support/callback-receiver";
import { startTestPostgres, type TestPostgres } from "../../../tests/support/database";
import { cleanEnv, runShell, startShell, type BackgroundShell } from "../../../tests/support/guide-shell";
import { makeHttpsClient, type HttpsClient } from "../../../tests/support/https-client";
import { NGINX, type RunningNginx } from "../../../tests/support/nginx";
import type { RunningOidcProvider } from "../../../tests/support/oidc-provider";
import { ensureBuild, freePort } from "../../../tests/support/server";
import { makeTestCa, type TestCa } from "../../../tests/support/test-ca";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const APP_HOST = "rx.pharmacy.test";
export const IDP_HOST = "idp.pharmacy.test";
const RECEIVER_HOST = "callbacks.sender.test";
export const HOSTS = [APP_HOST, IDP_HOST, RECEIVER_HOST];
/** How long one `npm start` may take to answer /readyz on this shared 2-core machine. */
export const START_MS = 120_000;
export const DRILL_DATABASE = "rx_transfer_drill";

export type RehearsalPorts = { https: number; http: number; first: number; second: number; drill: number };

export class RehearsalDeployment {
  dir = "";
  ca!: TestCa;
  postgres: TestPostgres | null = null;
  ports!: RehearsalPorts;
  publicUrl = "";
  databaseUrl = "";
  https!: HttpsClient;
  provider: RunningOidcProvider | null = null;
  receiver: CallbackReceiver | null = null;
  nginx: RunningNginx | null = null;
  readonly processes: { name: string; shell: BackgroundShell }[] = [];
  browser: Browser | null = null;
  /** Step 3's line that loads the settings, put before every later command. */
  loadSettings = "";
  /** Where the single sign-on's browser went, for the failure's report. */
  readonly navigations: string[] = [];

  constructor(private readonly guide: Map<number, GuideStep>) {}

  step = (n: number): GuideStep => guideStep(this.guide, n);

  /** The folders, CA, ports, an empty PostgreSQL server and the callback receiver, before step 2. */
  async setUp(): Promise<void> {
    if (!existsSync(NGINX))
      throw new Error(`no ${NGINX}: install Debian's nginx (apt-get install -y nginx; .ci/run does)`);
    ensureBuild();
    this.dir = mkdtempSync(path.join(os.tmpdir(), "rx-rehearsal-"));
    for (const sub of ["etc", "backups", "tls", "nginx"]) mkdirSync(path.join(this.dir, sub), { mode: 0o700 });
    // deploy.md's preamble: root makes /etc/rx-transfer and /var/backups/rx 0700 for the service's account.
    chmodSync(path.join(this.dir, "backups"), 0o700);
    this.ca = makeTestCa(path.join(this.dir, "tls"));
    this.ports = {
      https: await freePort(),
      http: await freePort(),
      first: await freePort(),
      second: await freePort(),
      drill: await freePort(),
    };
    this.publicUrl = `https://${APP_HOST}:${this.ports.https}`;
    this.https = makeHttpsClient({ ca: this.ca.ca, hosts: HOSTS });
    this.postgres = await startTestPostgres();
    // A database that does not exist yet: step 4's db:deploy creates it.
    this.databaseUrl = this.postgres.adminUrl.replace(
      /\/postgres(\?|$)/,
      `/rx_transfer_${randomBytes(4).toString("hex")}$1`,
    );
    const receiverCert = this.ca.issue("receiver", [RECEIVER_HOST]);
    this.receiver = await startCallbackReceiver({
      tls: { key: receiverCert.key, cert: receiverCert.cert, host: RECEIVER_HOST },
    });
  }

  async tearDown(): Promise<void> {
    await this.browser?.close();
    await Promise.all(this.processes.map((p) => p.shell.stop()));
    await this.nginx?.stop();
    await this.provider?.stop();
    await this.receiver?.close();
    await this.dropDatabases([
      new URL(this.databaseUrl || "postgresql://x/none").pathname.slice(1),
      DRILL_DATABASE,
    ]).catch(() => {});
    await this.postgres?.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Drops the rehearsal's databases (an external server keeps them otherwise; an embedded one goes entirely). */
  async dropDatabases(names: string[]): Promise<void> {
    if (!this.postgres) return;
    const client = new pg.Client({ connectionString: this.postgres.adminUrl });
    await client.connect();
    try {
      for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }

  /** A failed step shows what the service, the worker and nginx said meanwhile (the ends of their logs). */
  async reportFailure(testInfo: TestInfo): Promise<void> {
    const tail = (text: string) => text.split("\n").slice(-40).join("\n");
    for (const { name, shell } of this.processes) await testInfo.attach(name, { body: tail(shell.output()) });
    if (this.nginx) await testInfo.attach("nginx error.log", { body: tail(this.nginx.errorLog()) });
    if (this.navigations.length)
      process.stderr.write(`\n--- the browser's navigations\n${this.navigations.join("\n")}\n`);
    for (const { name, shell } of this.processes) process.stderr.write(`\n--- ${name}\n${tail(shell.output())}\n`);
  }

  /** The guide's text with the rehearsal's places, ports and names (the header comment lists each). */
  local = (text: string): string =>
    text
      .replaceAll("/etc/rx-transfer", path.join(this.dir, "etc"))
      .replaceAll("/var/backups/rx", path.join(this.dir, "backups"))
      .replaceAll("/etc/ssl/rx-transfer", path.join(this.dir, "tls"))
      .replaceAll("/srv/rx-transfer", ROOT)
      .replaceAll(`https://${APP_HOST}`, this.publicUrl)
      .replaceAll(`https://${IDP_HOST}`, this.provider?.issuer ?? `https://${IDP_HOST}`)
      .replaceAll("https://callbacks.acme.test/rx", `${this.receiver?.baseUrl ?? ""}/rx`)
      .replaceAll(/postgresql:\/\/rx_transfer:CHANGE-ME@db\.pharmacy\.test:5432\/rx_transfer/g, this.databaseUrl)
      .replaceAll("PORT=3000", `PORT=${this.ports.first}`)
      .replaceAll("PORT=3001", `PORT=${this.ports.second}`)
      .replaceAll("PORT=3999", `PORT=${this.ports.drill}`);

  /**
   * The operator's shell. DATA_DIR points where nothing should ever be written: a command that lost its
   * DATABASE_URL would start an embedded database there instead of in the checkout's .data (checked last).
   */
  private operatorEnv(): Record<string, string> {
    return cleanEnv({ DATA_DIR: path.join(this.dir, "must-stay-unused") });
  }

  /** Runs one of the guide's shell blocks as written, after step 3's line that loads the settings. */
  runGuideCommands = async (n: number, block: string, opts: { stdin?: string; load?: boolean } = {}) => {
    const script = opts.load === false ? this.local(block) : `${this.loadSettings}\n${this.local(block)}`;
    const result = await runShell(script, {
      cwd: ROOT,
      env: this.operatorEnv(),
      stdin: opts.stdin,
      timeoutMs: 150_000,
    });
    if (result.code !== 0) {
      throw new Error(
        `deploy.md step ${n} (${this.step(n).title}): this command failed (exit ${result.code}):\n${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      );
    }
    return result;
  };

  /** Starts one of the guide's long-running commands in the background. */
  startGuideCommand = (name: string, block: string): BackgroundShell => {
    const shell = startShell(`${this.loadSettings}\n${this.local(block)}`, { cwd: ROOT, env: this.operatorEnv() });
    this.processes.push({ name, shell });
    return shell;
  };
}

export async function waitForReady(url: string, shell: BackgroundShell, what: string): Promise<void> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (shell.exited()) throw new Error(`${what} exited before it was ready:\n${shell.output()}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not ready in ${START_MS / 1000} s:\n${shell.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function envFileValue(file: string, name: string): string {
  const line = readFileSync(file, "utf8")
    .split("\n")
    .findLast((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`${file} has no ${name}`);
  return line.slice(name.length + 1).replace(/^"(.*)"$/, "$1");
}
