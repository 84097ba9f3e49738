// The production rehearsal: docs/operators/deploy.md followed on this machine, step by step, with real parts
// (Debian's nginx terminating TLS for host names that are not localhost, a certificate from a CA the test
// makes with openssl, a fresh PostgreSQL database, two `npm start` instances and `npm run worker` behind
// nginx, oidc-provider as the company's identity provider on its own https host name, Chromium). The shell
// commands are the guide's own code blocks, run by bash in a clean environment; each test is one step of the
// guide and its title names it, so a failure says which step of deploy.md broke. The steps are one chain
// over one deployment (each uses what the earlier ones made), so they stay in this one serial file; the
// deployment and the guide's commands are in e2e/support/rehearsal/.
//
// What the rehearsal changes in the guide's commands is listed in e2e/support/rehearsal/deployment.ts. What
// it adds to the settings file, as a pharmacy on its own network would: NODE_EXTRA_CA_CERTS (its CA),
// CALLBACK_ALLOW_PRIVATE_NETWORKS=true (the receiver is on this machine; deploy.md step 12), and in place of
// the company's DNS a preload that resolves the rehearsal's host names to 127.0.0.1
// (tests/support/test-hosts.mjs). Step 9's settings are written before the first start instead of after it,
// which saves the restart the guide asks for.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect as baseExpect, test, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import pg from "pg";
import { readGuide, guideBlock, guideValue } from "./deploy-guide";
import { rehearsalBrowser } from "./support/rehearsal/browser";
import {
  APP_HOST,
  DRILL_DATABASE,
  envFileValue,
  HOSTS,
  IDP_HOST,
  RehearsalDeployment,
  ROOT,
  START_MS,
  waitForReady,
} from "./support/rehearsal/deployment";
import { rehearsalTransfer } from "./support/rehearsal/transfer-request";
import type { TransferResponse } from "../lib/interface";
import { verifyStandardWebhook } from "../tests/support/callback-receiver";
import { startNginx } from "../tests/support/nginx";
import { reserveOidcIssuer, startOidcProvider } from "../tests/support/oidc-provider";

/** Pages behind nginx, two instances and a provider on a busy shared machine: more than the suite's 10 s. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.describe.configure({ mode: "serial", timeout: 180_000 });

// Filled in as the steps go; each step uses what the earlier ones made.
const deployment = new RehearsalDeployment(readGuide());
const { local, runGuideCommands, startGuideCommand, step } = deployment;
let admin: { email: string; password: string };
let partner: { apiKey: string; clientId: string; clientSecret: string; webhookSecret: string };
let approvedReference = "";
let oauthReference = "";

test.beforeAll(async () => {
  await deployment.setUp();
});

test.afterAll(async () => {
  await deployment.tearDown();
});

// A failed step shows what the service, the worker and nginx said meanwhile (the ends of their logs).
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  await deployment.reportFailure(testInfo);
});

test("deploy.md step 2: make the secrets", async () => {
  await runGuideCommands(2, guideBlock(step(2), "sh"), { load: false });
  const file = path.join(deployment.dir, "etc", "secrets.env");
  expect(statSync(file).mode & 0o777, "secrets.env readable by its owner alone").toBe(0o600);
  for (const name of ["AUTH_SECRET", "DATA_ENCRYPTION_KEY", "AUDIT_HMAC_KEY", "METRICS_TOKEN"])
    expect(envFileValue(file, name).length, name).toBeGreaterThanOrEqual(32);
});

test("deploy.md step 3: set the settings", async () => {
  const settings = step(3);
  await runGuideCommands(3, guideBlock(settings, "sh", 0), { load: false });
  deployment.loadSettings = local(guideBlock(settings, "sh", 1));
  // The step's table says what each setting the guide writes is for: none is left unexplained.
  const written = [2, 3, 9, 11].flatMap((n) =>
    step(n)
      .blocks.filter((b) => b.lang === "sh")
      .flatMap((b) => [...b.text.matchAll(/^(?:echo ')?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!)),
  );
  const table = settings.text.slice(settings.text.indexOf("| setting"));
  for (const name of new Set(written)) expect.soft(table, `step 3's table explains ${name}`).toContain(`\`${name}\``);
  // Step 9 (single sign-on), written before the first start: the identity provider's address comes first.
  const sso = step(9);
  const clientId = guideValue(sso, /^OIDC_CLIENT_ID=(\S+)$/m, "OIDC_CLIENT_ID");
  const reservation = await reserveOidcIssuer({ origin: `https://${IDP_HOST}`, clientId });
  const redirectUri = guideValue(sso, /redirect URI\s*\|\s*`([^`]+)`/, "the redirect URI to register");
  const idpCert = deployment.ca.issue("idp", [IDP_HOST]);
  deployment.provider = await startOidcProvider({
    ...reservation,
    redirectUri: local(redirectUri),
    tls: { key: idpCert.key, cert: idpCert.cert },
  });
  await runGuideCommands(9, guideBlock(sso, "sh", 0).replace(/^sudo systemctl .*$/m, ""), { load: false });
  // What this machine adds (the header comment says why), and the secret the provider gave.
  writeFileSync(
    path.join(deployment.dir, "etc", "rx-transfer.env"),
    [
      `NODE_EXTRA_CA_CERTS=${deployment.ca.caFile}`,
      "CALLBACK_ALLOW_PRIVATE_NETWORKS=true",
      `NODE_OPTIONS="--import ${path.join(ROOT, "tests/support/test-hosts.mjs")}"`,
      `RX_TEST_HOSTS=${HOSTS.join(",")}`,
      "",
    ].join("\n"),
    { flag: "a" },
  );
  writeFileSync(path.join(deployment.dir, "etc", "secrets.env"), `OIDC_CLIENT_SECRET=${reservation.clientSecret}\n`, {
    flag: "a",
  });
  const loaded = await runGuideCommands(3, 'echo "$PUBLIC_URL $PHARMACY_NPI $PHARMACY_NAME"');
  expect(loaded.stdout.trim(), "step 3's file, loaded as step 3 says").toMatch(
    new RegExp(`^${deployment.publicUrl.replace(/[.]/g, "\\.")} \\d{10} \\S.*$`),
  );
});

test("deploy.md step 4: create the database's tables (npm run db:deploy)", async () => {
  await runGuideCommands(4, guideBlock(step(4), "sh"));
  const client = new pg.Client({ connectionString: deployment.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM _prisma_migrations");
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
  } finally {
    await client.end();
  }
});

test("deploy.md step 5: create the first admin with the CLI", async () => {
  const block = guideBlock(step(5), "sh");
  admin = { email: guideValue(step(5), /--email (\S+)/, "the admin's email"), password: `pw-${randomUUID()}` };
  const result = await runGuideCommands(5, block, { stdin: `${admin.password}\n` });
  expect(result.stdout).toMatch(/usr_/);
});

test("deploy.md step 6: two instances (npm start) and a worker (npm run worker)", async () => {
  const blocks = step(6).blocks.filter((b) => b.lang === "sh");
  const [first, second, worker] = [blocks[0]!.text, blocks[1]!.text, blocks[2]!.text];
  expect(first, "step 6's first instance").toMatch(/PORT=3000 npm start/);
  expect(second, "step 6's second instance").toMatch(/PORT=3001 npm start/);
  expect(worker, "step 6's worker").toMatch(/npm run worker/);
  const instances = [startGuideCommand("instance :3000", first), startGuideCommand("instance :3001", second)];
  const workerShell = startGuideCommand("worker", worker);
  await Promise.all([
    waitForReady(`http://127.0.0.1:${deployment.ports.first}/readyz`, instances[0]!, "the first instance"),
    waitForReady(`http://127.0.0.1:${deployment.ports.second}/readyz`, instances[1]!, "the second instance"),
    workerShell.waitForOutput(/\[rx-transfer worker\] running/, START_MS),
  ]);
});

test("deploy.md step 7: nginx in front, with TLS", async () => {
  const serverConfig = local(guideBlock(step(7), "nginx"))
    .replaceAll(/listen 443 /g, `listen 127.0.0.1:${deployment.ports.https} `)
    .replaceAll(/listen 80;/g, `listen 127.0.0.1:${deployment.ports.http};`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${deployment.ports.first}`)
    .replaceAll("127.0.0.1:3001", `127.0.0.1:${deployment.ports.second}`);
  const cert = deployment.ca.issue("rx", [APP_HOST]);
  // The full chain and key under the names the guide gives them.
  writeFileSync(path.join(deployment.dir, "tls", "fullchain.pem"), cert.cert);
  writeFileSync(path.join(deployment.dir, "tls", "privkey.pem"), cert.key, { mode: 0o600 });
  deployment.nginx = await startNginx({
    dir: path.join(deployment.dir, "nginx"),
    serverConfig,
    port: deployment.ports.https,
  });
  const ready = await deployment.https(`${deployment.publicUrl}/readyz`);
  expect(ready.status, `GET ${deployment.publicUrl}/readyz through nginx: ${ready.text}`).toBe(200);
  const hsts = await deployment.https(`${deployment.publicUrl}/healthz`);
  expect(hsts.headers["strict-transport-security"], "HSTS: the service believes nginx's X-Forwarded-Proto").toMatch(
    /max-age=/,
  );
});

test("deploy.md step 8: the admin's first sign-in enrols two-factor", async () => {
  const page = await (await (await rehearsalBrowser(deployment)).newContext()).newPage();
  await page.goto(`${deployment.publicUrl}/login`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page, "MFA_REQUIRED=admins: the Security page opens first").toHaveURL(
    new RegExp(`^${deployment.publicUrl}/security`),
  );
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.getByLabel("Code from the app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await page.getByRole("link", { name: /I have saved my recovery codes/ }).click();
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  expect(page.url().startsWith(`${deployment.publicUrl}/`), `stays on ${deployment.publicUrl}: ${page.url()}`).toBe(
    true,
  );
  const session = (await page.context().cookies(deployment.publicUrl)).find((c) =>
    c.name.includes("authjs.session-token"),
  );
  expect(session?.secure, "the session cookie is Secure (HTTPS as nginx forwarded it)").toBe(true);
  await page.context().close();
});

let pharmacistPage: Page;

test("deploy.md step 9: a pharmacist signs in through single sign-on and reaches the queue", async () => {
  const sso = step(9);
  const userBlock = guideBlock(sso, "sh", 1);
  const email = guideValue(sso, /user create --email (\S+)/, "the pharmacist's email");
  await runGuideCommands(9, userBlock);
  deployment.provider!.addAccount({ sub: "pat-at-the-provider", email, email_verified: true, name: "Pat Lee" });
  const buttonName = `Sign in with ${guideValue(sso, /^OIDC_NAME="?([^"\n]+)"?$/m, "OIDC_NAME")}`;

  const page = await (await (await rehearsalBrowser(deployment)).newContext()).newPage();
  pharmacistPage = page;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) deployment.navigations.push(frame.url());
  });
  page.on("requestfailed", (request) =>
    deployment.navigations.push(`failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  await page.goto(`${deployment.publicUrl}/transfers`);
  await expect(page).toHaveURL(new RegExp(`^${deployment.publicUrl}/login\\?`));
  await page.getByRole("button", { name: buttonName }).click();
  await expect(page).toHaveURL(new RegExp(`^${deployment.provider!.issuer}/interaction/`));
  await page.getByPlaceholder("Enter any login").fill("pat-at-the-provider");
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  // Back from another site: the one-click confirmation (docs/operators/single-sign-on.md).
  await expect(page, "the provider's redirect back lands on the public URL, signed in").toHaveURL(
    new RegExp(`^${deployment.publicUrl}/continue\\?`),
  );
  await page.getByRole("link", { name: "Continue to /transfers" }).click();
  await expect(page).toHaveURL(`${deployment.publicUrl}/transfers`);
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
});

test("deploy.md step 10: /metrics refuses without its token and answers with it", async () => {
  const token = envFileValue(path.join(deployment.dir, "etc", "secrets.env"), "METRICS_TOKEN");
  expect(guideBlock(step(10), "sh")).toContain("Authorization: Bearer $METRICS_TOKEN");
  const refused = await deployment.https(`${deployment.publicUrl}/metrics`);
  expect(refused.status, "GET /metrics without the token").toBe(401);
  const scraped = await deployment.https(`${deployment.publicUrl}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(scraped.status, "GET /metrics with METRICS_TOKEN").toBe(200);
  expect(scraped.text).toContain("rx_ready");
});

test("deploy.md step 12: a sender posts transfers over HTTPS with an API key and with an OAuth token", async () => {
  const created = await runGuideCommands(12, guideBlock(step(12), "sh"));
  partner = JSON.parse(created.stdout.trim().split("\n").at(-1)!) as typeof partner;
  expect(partner.apiKey).toMatch(/^rxk_/);

  const withKey = rehearsalTransfer(step);
  const keyed = await deployment.https(`${deployment.publicUrl}/v1/transfer`, {
    method: "POST",
    headers: { authorization: `senderKey ${partner.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(withKey),
  });
  expect(keyed.status, `POST /v1/transfer with the API key: ${keyed.text}`).toBe(200);
  approvedReference = (JSON.parse(keyed.text) as TransferResponse).metadata.referenceID;

  // OAuth as a sender's library does it: discovery at the public URL, whose issuer must be that URL.
  const discovery = await deployment.https(`${deployment.publicUrl}/.well-known/oauth-authorization-server`);
  expect(discovery.status).toBe(200);
  const metadata = JSON.parse(discovery.text) as { issuer: string; token_endpoint: string };
  expect(metadata.issuer, "OAuth discovery's issuer is the public URL").toBe(deployment.publicUrl);
  expect(metadata.token_endpoint).toBe(`${deployment.publicUrl}/oauth/token`);
  const tokenAnswer = await deployment.https(metadata.token_endpoint, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(tokenAnswer.status, `POST /oauth/token: ${tokenAnswer.text}`).toBe(200);
  const { access_token } = JSON.parse(tokenAnswer.text) as { access_token: string };
  const withToken = rehearsalTransfer(step);
  const bearer = await deployment.https(`${deployment.publicUrl}/v1/transfer`, {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    body: JSON.stringify(withToken),
  });
  expect(bearer.status, `POST /v1/transfer with the OAuth token: ${bearer.text}`).toBe(200);
  oauthReference = (JSON.parse(bearer.text) as TransferResponse).metadata.referenceID;
  expect(oauthReference).toMatch(/^trf_/);
});

test("deploy.md steps 6 and 12: the pharmacist approves; the worker's signed callback reaches the https receiver", async () => {
  const page = pharmacistPage;
  await page.goto(`${deployment.publicUrl}/transfers/${approvedReference}`);
  await page.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  const [callback] = await deployment.receiver!.waitFor("/rx", 1, 60_000);
  expect(verifyStandardWebhook(callback!, partner.webhookSecret), "the callback's Standard Webhooks signature").toBe(
    true,
  );
  const body = JSON.parse(callback!.body) as TransferResponse;
  expect(body.metadata.referenceID).toBe(approvedReference);
  expect(body.metadata.responseType).toBe("CONFIRMED");
  // Sent by step 6's `npm run worker` (the instances run none: RUN_WORKER=false), which allows no http://.
  const worker = deployment.processes.find((p) => p.name === "worker")!.shell;
  expect(worker.output(), "CALLBACK_ALLOW_INSECURE_HTTP unset").toContain('"allowInsecureHttp":false');
  await expect.poll(() => worker.output(), { message: "the worker logged the delivery" }).toContain(approvedReference);
  await page.context().close();
});

test("deploy.md step 13: backup, restore drill into a new database, audit verify, the restored service answers", async () => {
  const backupStep = step(13);
  expect(guideBlock(backupStep, "sh", 2), "the drill's database").toContain(DRILL_DATABASE);
  await deployment.dropDatabases([DRILL_DATABASE]); // a crashed earlier run's, on an external server
  await runGuideCommands(13, guideBlock(backupStep, "sh", 1));
  const files = readdirSync(path.join(deployment.dir, "backups")).filter((f) => f.endsWith(".rxbackup.gz"));
  expect(files, "one backup file").toHaveLength(1);
  expect.soft(statSync(path.join(deployment.dir, "backups", files[0]!)).mode & 0o777, "the backup is 0600").toBe(0o600);
  expect.soft(statSync(path.join(deployment.dir, "backups")).mode & 0o777, "its folder is 0700").toBe(0o700);

  const drill = await runGuideCommands(13, guideBlock(backupStep, "sh", 2));
  expect(drill.stdout, "audit verify on the restored database").toMatch(/audit chain intact: [1-9]\d* records/);

  const drillServer = startGuideCommand("restored instance :3999", guideBlock(backupStep, "sh", 3));
  try {
    await waitForReady(`http://127.0.0.1:${deployment.ports.drill}/readyz`, drillServer, "the restored service");
    const lookup = await fetch(`http://127.0.0.1:${deployment.ports.drill}/v1/transfer/${approvedReference}`, {
      headers: { authorization: `senderKey ${partner.apiKey}` },
    });
    expect(lookup.status, "the restored service's status lookup").toBe(200);
    expect(((await lookup.json()) as TransferResponse).metadata.responseType).toBe("CONFIRMED");
  } finally {
    await drillServer.stop();
  }
  expect(
    existsSync(path.join(deployment.dir, "must-stay-unused")),
    "no step ran without DATABASE_URL (which starts an embedded database in DATA_DIR)",
  ).toBe(false);
});
