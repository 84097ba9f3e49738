// `npm run test:container`: the Dockerfile and compose.yaml, built and run for real with Debian's podman.
// No image registry is reachable from the machines this runs on, so the two official base images are built
// locally first (scripts/container/build-stand-ins.sh, kept between runs), then the real Dockerfile with
// --pull=never, then the stack from compose.yaml, unchanged, with podman-compose (its own bridge network,
// only the web port published, on 127.0.0.1 here). Ends with one line `container: N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { exampleTransferRequest } from "@/lib/demo/example-request";
import { computeNpiCheckDigit } from "@/lib/interface";

const ROOT = path.resolve(import.meta.dirname, "..");
const IMAGE = "rx-transfer:latest";
const PROJECT = "rxcontainertest";
const started = Date.now();
const tally = { passed: 0, failed: 0 };
const failures: string[] = [];

const say = (msg: string) => process.stdout.write(`[container ${Math.round((Date.now() - started) / 1000)}s] ${msg}\n`);
/** Set by SIGINT/SIGTERM: the steps still to come fail at once and are not counted; only clean-up runs. */
let interrupted: string | null = null;
const running = new Set<ReturnType<typeof spawn>>();

function check(name: string, ok: boolean, detail = ""): boolean {
  if (interrupted) return false;
  tally[ok ? "passed" : "failed"]++;
  if (!ok) failures.push(name);
  process.stdout.write(`  ${ok ? "ok  " : "FAIL"} ${name}${detail ? ` (${detail})` : ""}\n`);
  return ok;
}

// podman as it runs here: runc (crun cannot use this machine's cgroups), cgroupfs (no systemd), and no
// default ulimits (the sandbox refuses setrlimit, even to the current values).
const work = mkdtempSync(path.join(tmpdir(), "rx-container-"));
const containersConf = path.join(work, "containers.conf");
writeFileSync(containersConf, "[containers]\ndefault_ulimits = []\n");
const PODMAN_ARGS = ["--runtime", "runc", "--cgroup-manager", "cgroupfs"];
const env = {
  ...process.env,
  CONTAINERS_CONF: containersConf,
  NEXT_TELEMETRY_DISABLED: "1",
  PODMAN: ["podman", ...PODMAN_ARGS].join(" "), // for scripts/container/build-stand-ins.sh
};

type Run = { code: number; stdout: string; stderr: string };

type RunOptions = { stream?: boolean; cwd?: string; input?: string; cleanUp?: boolean };

/** Runs a command; with `stream`, its output is shown as it comes (for the long builds). */
function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<Run> {
  if (interrupted && !opts.cleanUp) return Promise.resolve({ code: 130, stdout: "", stderr: interrupted });
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
    running.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (opts.stream) process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (opts.stream) process.stdout.write(d);
    });
    child.stdin.end(opts.input ?? "");
    child.on("close", (code) => {
      running.delete(child);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
const podman = (args: string[], opts?: Omit<RunOptions, "cwd">) => run("podman", [...PODMAN_ARGS, ...args], opts);
const composeFiles = () => ["-f", path.join(work, "compose.yaml")];
const compose = (args: string[], opts?: Omit<RunOptions, "cwd">) =>
  run("podman-compose", ["--podman-args", PODMAN_ARGS.join(" "), "-p", PROJECT, ...composeFiles(), ...args], {
    ...opts,
    cwd: work,
  });
const containerOf = (service: string) => `${PROJECT}_${service}_1`;
const tail = (r: Run, n = 15) => `${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-n).join("\n");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function get(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function waitFor(what: string, seconds: number, probe: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline && !interrupted) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  say(`gave up waiting for ${what} after ${seconds}s`);
  return false;
}

/** A valid NPI that is not the demo's, for this test's store. */
function storeNpi(): string {
  const nine = `1${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, "0")}`;
  return `${nine}${computeNpiCheckDigit(nine)}`;
}

async function cli(args: string[]): Promise<{ code: number; json: Record<string, unknown> | null; out: string }> {
  const r = await podman(["exec", containerOf("web"), "npm", "run", "-s", "cli", "--", ...args, "--json"]);
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { code: r.code, json, out: tail(r) };
}

/**
 * podman-compose 1.0.3 (Debian 12's) starts services without waiting for depends_on conditions, so the order
 * compose.yaml declares is followed step by step: the database, until healthy; db-deploy; web and worker.
 */
async function startStack(base: string, when: string): Promise<boolean> {
  const upDb = await compose(["up", "-d", "db"]);
  if (!check(`compose starts the database (${when})`, upDb.code === 0, upDb.code === 0 ? "" : tail(upDb))) return false;
  const dbReady = await waitFor("pg_isready", 90, async () => {
    const r = await podman(["exec", containerOf("db"), "pg_isready"]);
    return r.code === 0;
  });
  if (!check(`the database accepts connections (${when})`, dbReady)) return false;
  const deploy = await compose(["run", "--rm", "db-deploy"]);
  const deployed = deploy.code === 0 && /migrations applied/.test(deploy.stdout);
  if (
    !check(
      `db-deploy applies the migrations and exits 0 (${when})`,
      deployed,
      deployed ? (deploy.stdout.match(/migrations applied[^\n]*/)?.[0] ?? "") : tail(deploy, 15),
    )
  )
    return false;
  const up = await compose(["up", "-d", "--no-deps", "web", "worker"]);
  check(`compose starts web and worker (${when})`, up.code === 0, up.code === 0 ? "" : tail(up));
  const ready = await waitFor("/readyz 200", 180, async () => (await get(`${base}/readyz`)) === 200);
  if (!check(`/readyz answers 200 (${when})`, ready)) {
    say(tail(await podman(["logs", "--tail", "30", containerOf("web")]), 30));
    return false;
  }
  return true;
}

// One run at a time on a machine: runs share the image tag compose.yaml names and the project's names.
const LOCK = path.join(tmpdir(), "rx-transfer-container-test.lock");
let ownsLock = false;

/** Takes the machine's lock, or names the live process that holds it. */
function takeLock(): string | null {
  try {
    writeFileSync(LOCK, String(process.pid), { flag: "wx" });
    ownsLock = true;
    return null;
  } catch {
    const holder = Number(readFileSync(LOCK, "utf8"));
    try {
      process.kill(holder, 0);
      return `pid ${holder} holds ${LOCK}`;
    } catch {
      rmSync(LOCK, { force: true }); // left by a run that died
      return takeLock();
    }
  }
}

async function main(): Promise<void> {
  for (const tool of ["podman", "runc", "debootstrap", "podman-compose"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
      check(`${tool} is installed`, false, "apt-get install -y podman runc debootstrap podman-compose");
      return;
    }
  }

  const holder = takeLock();
  if (!check("no other container test runs on this machine", holder === null, holder ?? "")) return;

  say("stand-ins for node:20-bookworm-slim and postgres:15-bookworm (built once, then kept)");
  const standIns = await run("bash", [path.join(ROOT, "scripts/container/build-stand-ins.sh")], { stream: true });
  if (!check("stand-in base images exist", standIns.code === 0, standIns.code === 0 ? "" : `exit ${standIns.code}`))
    return;

  say("podman build --pull=never of the real Dockerfile (npm ci, next build, runtime stage)…");
  const buildStart = Date.now();
  const build = await podman(
    ["build", "--pull=never", "--network=host", "--format", "docker", "--layers", "-t", IMAGE, "."],
    { stream: true },
  );
  if (
    !check("Dockerfile builds with --pull=never", build.code === 0, `${Math.round((Date.now() - buildStart) / 1000)}s`)
  )
    return;

  const inspect = await podman(["image", "inspect", IMAGE]);
  const image = (
    JSON.parse(inspect.stdout) as {
      Size: number;
      Config: { User?: string; StopSignal?: string };
      Healthcheck?: { Test?: string[] };
    }[]
  )[0]!;
  say(`image size: ${(image.Size / 1e6).toFixed(0)} MB (podman image inspect .Size)`);
  check("the image runs as the non-root user node", image.Config.User === "node", image.Config.User ?? "root");
  check("STOPSIGNAL is SIGTERM", image.Config.StopSignal === "SIGTERM", image.Config.StopSignal);
  check(
    "HEALTHCHECK probes /healthz with node",
    (image.Healthcheck?.Test ?? []).join(" ").includes("/healthz"),
    (image.Healthcheck?.Test ?? []).slice(0, 2).join(" "),
  );
  const listing = await podman(["run", "--rm", "--network=host", IMAGE, "sh", "-c", "ls -a /app; id -u"]);
  const entries = listing.stdout.split("\n");
  check(
    "no .env, .data, .git or test folders baked into the image",
    listing.code === 0 && ![".env", ".data", ".git", "test-results"].some((e) => entries.includes(e)),
    entries.filter((e) => e.startsWith(".")).join(" "),
  );

  // The stack: .env.example filled in, in a folder of its own (a developer's .env is never read or touched).
  const webPort = await freePort();
  const npi = storeNpi();
  const key = () => randomBytes(32).toString("base64");
  copyFileSync(path.join(ROOT, "compose.yaml"), path.join(work, "compose.yaml"));
  const filled: Record<string, string> = {
    POSTGRES_PASSWORD: randomBytes(16).toString("hex"),
    AUTH_SECRET: key(),
    DATA_ENCRYPTION_KEY: key(),
    AUDIT_HMAC_KEY: key(),
    PHARMACY_NPI: npi,
    PHARMACY_NAME: "Container Test Pharmacy",
    PUBLIC_URL: `http://127.0.0.1:${webPort}`,
    SHUTDOWN_DRAIN_SECONDS: "3",
    WEB_PORT: `127.0.0.1:${webPort}`,
  };
  const unfilled = new Set(Object.keys(filled));
  const dotEnv = readFileSync(path.join(ROOT, ".env.example"), "utf8").replace(
    /^([A-Z_]+)=.*$/gm,
    (line, name: string) => (unfilled.delete(name) ? `${name}=${filled[name]}` : line),
  );
  if (!check(".env is .env.example filled in", unfilled.size === 0, [...unfilled].join(", "))) return;
  writeFileSync(path.join(work, ".env"), dotEnv, { mode: 0o600 });
  const base = `http://127.0.0.1:${webPort}`;

  say("compose up -d db (named volume), db-deploy, web and worker, on the project's own network");
  if (!(await startStack(base, "first start"))) return;
  const published = await Promise.all(
    ["db", "worker"].map(async (service) => (await podman(["port", containerOf(service)])).stdout.trim()),
  );
  const webPorts = (await podman(["port", containerOf("web")])).stdout.trim();
  check(
    "only the web port is published",
    published.every((p) => p === "") && webPorts === `3000/tcp -> 127.0.0.1:${webPort}`,
    `web: ${webPorts}; db, worker: ${published.map((p) => p || "none").join(", ")}`,
  );
  const worker = await podman(["inspect", "--format", "{{.State.Running}}", containerOf("worker")]);
  check("the worker is running", worker.stdout.trim() === "true", worker.stdout.trim() || tail(worker, 3));
  const health = await podman(["healthcheck", "run", containerOf("web")]);
  check("the image's HEALTHCHECK passes in the web container", health.code === 0, tail(health, 2));

  say("first admin and a sending partner with the CLI inside the web container");
  const admin = await cli([
    "user",
    "create",
    "--email",
    "admin@pharmacy.example",
    "--password",
    `Adm1n-${randomBytes(9).toString("hex")}`,
    "--role",
    "admin",
  ]);
  check(
    "CLI: first admin created",
    admin.code === 0 && admin.json !== null && !("error" in admin.json),
    admin.out.split("\n").at(-1),
  );
  const partner = await cli([
    "partner",
    "create",
    "--name",
    "Container Test Sender",
    "--callback-url",
    "https://sender.example/rx-callbacks",
    "--npi",
    "1843501234",
  ]);
  const apiKey = typeof partner.json?.apiKey === "string" ? partner.json.apiKey : "";
  check(
    "CLI: partner with an API key created",
    partner.code === 0 && apiKey.startsWith("rxk_"),
    apiKey ? "" : partner.out,
  );

  const request = exampleTransferRequest(new Date());
  request.receivingPharmacy.npi = npi;
  request.receivingPharmacy.name = "Container Test Pharmacy";
  const posted = await fetch(`${base}/v1/transfer`, {
    method: "POST",
    headers: { authorization: `senderKey ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(request),
  }).catch((err: unknown) => err as Error);
  const postedBody =
    posted instanceof Response ? ((await posted.json().catch(() => null)) as Record<string, unknown> | null) : null;
  const transferId = JSON.stringify(postedBody ?? {}).match(/trf_[A-Za-z0-9_-]+/)?.[0] ?? "";
  check(
    "a transfer posted from the host with the API key is accepted",
    posted instanceof Response && posted.status >= 200 && posted.status < 300 && transferId !== "",
    posted instanceof Response
      ? `${posted.status} ${transferId || JSON.stringify(postedBody).slice(0, 200)}`
      : posted.message,
  );
  check("/readyz still 200 after the traffic", (await get(`${base}/readyz`)) === 200);

  say("podman stop of the web container: /readyz must answer 503 while it drains, then exit 0");
  let saw503 = false;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      if ((await get(`${base}/readyz`)) === 503) saw503 = true;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const stop = await podman(["stop", "-t", "40", containerOf("web")]);
  polling = false;
  await poller;
  check("/readyz answered 503 during the drain", saw503);
  const exit = await podman(["inspect", "--format", "{{.State.ExitCode}}", containerOf("web")]);
  check(
    "the web container exited 0 on SIGTERM",
    stop.code === 0 && exit.stdout.trim() === "0",
    `exit ${exit.stdout.trim()}`,
  );

  say("compose down (the named volume stays), then up again");
  const down = await compose(["down", "-t", "30"]);
  check("compose down", down.code === 0, down.code === 0 ? "" : tail(down));
  if (!(await startStack(base, "after the restart"))) return;
  const list = await cli(["partner", "list"]);
  check(
    "the partner survived the restart",
    list.code === 0 && JSON.stringify(list.json ?? {}).includes("Container Test Sender"),
    list.out.split("\n").at(-1)?.slice(0, 200),
  );
  const row = await podman([
    "exec",
    containerOf("db"),
    "psql",
    "-U",
    "rx_transfer",
    "-d",
    "rx_transfer",
    "-tAc",
    `SELECT count(*) FROM transfers WHERE id = '${transferId.replace(/[^A-Za-z0-9_-]/g, "")}'`,
  ]);
  check(
    "the transfer survived the restart",
    transferId !== "" && row.stdout.trim() === "1",
    row.stdout.trim() || tail(row, 2),
  );
  const audit = await cli(["audit", "verify"]);
  check("the audit log verifies after the restart", audit.code === 0, audit.out.split("\n").at(-1)?.slice(0, 200));
}

async function cleanUp(): Promise<void> {
  if (ownsLock) {
    say("cleaning up: compose down -v, the project's network, the test's folder");
    await compose(["down", "-v"], { cleanUp: true }).catch(() => undefined);
    // podman-compose 1.0.3's down leaves the project's network behind.
    await podman(["network", "rm", "-f", `${PROJECT}_default`], { cleanUp: true }).catch(() => undefined);
    rmSync(LOCK, { force: true });
  }
  rmSync(work, { recursive: true, force: true });
}

function finish(): never {
  if (failures.length) process.stdout.write(`failed: ${failures.join("; ")}\n`);
  say("finished");
  process.stdout.write(`container: ${tally.passed} passed, ${tally.failed} failed\n`);
  process.exit(tally.failed > 0 || tally.passed === 0 ? 1 : 0);
}

// Interrupted (Ctrl-C, a CI timeout): the stack, its volume and the lock go too, and the run counts as failed.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    check("the test ran to its end", false, `interrupted by ${signal}`);
    interrupted = signal;
    for (const child of running) child.kill("SIGTERM");
  });
}

main()
  .catch((err: unknown) => check("the test ran to its end", false, err instanceof Error ? err.stack : String(err)))
  .then(cleanUp)
  .finally(finish);
