// Callback delivery by `npm run worker` processes against a real PostgreSQL and a real HTTP receiver:
// retries and backoff, Retry-After, timeouts, redirects, 410, the 72-hour limit, redelivery, SSRF refusals
// at send time, a worker killed mid-delivery, a graceful stop, and two workers at once.
//
// Each group has a database of its own (so the test server's own in-process worker never takes these
// jobs) and its own worker processes, started with a scaled-down schedule (CALLBACK_RETRY_SCALE) and a
// short attempt deadline (CALLBACK_TIMEOUT_MS) so that hours of backoff take seconds.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { namedActor, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { reconcileCallbackJobs } from "@/lib/callbacks/job-queue";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { requestRedelivery } from "@/lib/callbacks/redeliver-callback";
import { RETRY_DELAYS_MS } from "@/lib/callbacks/retry-schedule";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { startCallbackReceiver, verifyStandardWebhook, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { createMigratedDatabase } from "@/tests/support/database";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  callbackRow,
  createCallbackPartner,
  dashboardCallbackStatus,
  decideTransfer,
  startWorkerProcess,
  runnableJobs,
  waitUntil,
  type WorkerProcess,
} from "./callbacks-fixtures";

const SCALE = 0.05;
const TIMEOUT_MS = 1500;
const FAST = {
  CALLBACK_RETRY_SCALE: String(SCALE),
  CALLBACK_TIMEOUT_MS: String(TIMEOUT_MS),
  WORKER_POLL_INTERVAL_MS: "100",
};

connectTestEnvironment();
const authSecret = inject("authSecret");
let receiver: CallbackReceiver;

/** A fresh migrated database with the job queue installed; this test process's db() now points at it. */
async function useFreshDatabase(): Promise<string> {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_callbacks");
  await installJobQueue(url);
  await disconnectDb();
  setEnv({ DATABASE_URL: url });
  return url;
}

const settled = (callbackId: string) => async () => {
  const row = await callbackRow(callbackId);
  return row.status !== "PENDING" ? row : null;
};

beforeAll(async () => {
  receiver = await startCallbackReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await disconnectDb();
});

describe("retries, timeouts, redirects, 410 and the 72-hour limit (one worker)", () => {
  let worker: WorkerProcess;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await useFreshDatabase();
    worker = await startWorkerProcess({ databaseUrl, authSecret, env: FAST });
  });

  /**
   * A transfer approved while no worker runs, its callback then dated 73 hours back, so that its first
   * attempt already falls outside the 72-hour window; the worker starts again afterwards.
   */
  async function decidedLongAgo(partner: CreatedPartner) {
    await worker.stop();
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    await db()
      .$executeRaw`UPDATE callbacks SET created_at = now() - interval '73 hours' WHERE id = ${decided.callbackId}`;
    worker = await startWorkerProcess({ databaseUrl, authSecret, env: FAST });
    return decided;
  }

  afterAll(async () => {
    await worker?.stop();
  });

  it("retries a receiver that fails 3 times with growing, jittered gaps, under one webhook-id, until it answers 2xx", async () => {
    receiver.script("/flaky", [
      { status: 500 },
      { status: 503 },
      { status: 502, body: "x".repeat(100_000) },
      { status: 200 },
    ]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/flaky`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    const requests = await receiver.waitFor("/flaky", 4, 30_000);

    expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([decided.callbackId]));
    for (const r of requests) {
      expect(verifyStandardWebhook(r, partner.webhookSecret)).toBe(true);
      expect(r.body).toBe(requests[0]!.body);
    }
    const gaps = requests.slice(1).map((r, i) => r.at - requests[i]!.at);
    RETRY_DELAYS_MS.slice(0, 3).forEach((base, i) => {
      const delay = base * SCALE;
      expect(gaps[i]).toBeGreaterThanOrEqual(delay * 0.8 - 20);
      expect(gaps[i]).toBeLessThanOrEqual(delay * 1.2 + 1000);
    });
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);

    const row = await waitUntil("delivered", settled(decided.callbackId));
    expect(row.status).toBe("DELIVERED");
    expect(row.attempts.map((a) => [a.attemptNumber, a.statusCode, a.manual])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 502, false],
      [4, 200, false],
    ]);
    expect(row.attempts.every((a) => a.latencyMs !== null && a.latencyMs >= 0)).toBe(true);
    expect(row.deliveredAt).not.toBeNull();
    expect(await dashboardCallbackStatus(decided.transferId)).toEqual({ queue: "DELIVERED", review: "DELIVERED" });
    // The endpoint failed for a while and then recovered: the partner is no longer flagged.
    const p = await db().partner.findUniqueOrThrow({ where: { id: partner.partnerId } });
    expect(p.callbackFailingSince).toBeNull();
  });

  it("honours Retry-After: the next attempt waits as long as the partner asked, not the (much shorter) schedule", async () => {
    receiver.script("/busy", [{ status: 503, headers: { "retry-after": "2" } }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/busy`);
    const decided = await decideTransfer({ partner, decision: "ERROR" });
    const [first, second] = await receiver.waitFor("/busy", 2, 15_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2000 - 20);
    expect(second!.at - first!.at).toBeLessThan(2000 + 1500);
    expect((await waitUntil("delivered", settled(decided.callbackId))).status).toBe("DELIVERED");
  });

  it("gives up on a slow receiver at the deadline, records the timeout, and retries", async () => {
    receiver.script("/slow", [{ hold: true }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/slow`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    const [first, second] = await receiver.waitFor("/slow", 2, 15_000);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    const row = await waitUntil("delivered", settled(decided.callbackId));
    expect(row.status).toBe("DELIVERED");
    const [timedOut, delivered] = row.attempts;
    expect(timedOut).toMatchObject({ statusCode: null, error: `timeout: no answer within ${TIMEOUT_MS} ms` });
    expect(timedOut!.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(timedOut!.latencyMs).toBeLessThan(TIMEOUT_MS + 1000);
    expect(delivered).toMatchObject({ statusCode: 204, error: null });
  });

  it("does not follow a redirect: a 3xx is a failed attempt, and the target is never called", async () => {
    receiver.script("/moved", [
      { status: 302, headers: { location: `${receiver.baseUrl}/moved-target` } },
      { status: 204 },
    ]);
    receiver.script("/moved-target", [{ status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/moved`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    const row = await waitUntil("delivered", settled(decided.callbackId));
    expect(row.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [302, "redirect not followed"],
      [204, null],
    ]);
    expect(receiver.requests("/moved-target")).toHaveLength(0);
  });

  it("stops at 410 Gone and flags the partner's endpoint", async () => {
    receiver.script("/gone", [{ status: 410 }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/gone`);
    const decided = await decideTransfer({ partner, decision: "ERROR" });
    const row = await waitUntil("gone", settled(decided.callbackId));
    expect(row).toMatchObject({ status: "GONE", lastStatusCode: 410, nextAttemptAt: null, attemptCount: 1 });
    expect(await dashboardCallbackStatus(decided.transferId)).toEqual({ queue: "GONE", review: "GONE" });
    expect((await db().partner.findUniqueOrThrow({ where: { id: partner.partnerId } })).callbackGoneAt).not.toBeNull();
    expect(await runnableJobs(decided.callbackId)).toBe(0);
    await new Promise((r) => setTimeout(r, 1000)); // the first retry would have come after ~250 ms
    expect(receiver.requests("/gone")).toHaveLength(1);
  });

  it("marks a callback FAILED when an attempt fails more than 72 hours after the first one", async () => {
    receiver.script("/dead", [{ status: 500 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/dead`);
    const decided = await decidedLongAgo(partner);
    const row = await waitUntil("failed", settled(decided.callbackId));
    expect(row).toMatchObject({ status: "FAILED", nextAttemptAt: null, lastStatusCode: 500 });
    expect(await dashboardCallbackStatus(decided.transferId)).toEqual({ queue: "FAILED", review: "FAILED" });
    expect(await runnableJobs(decided.callbackId)).toBe(0);
    expect(
      (await db().partner.findUniqueOrThrow({ where: { id: partner.partnerId } })).callbackFailingSince,
    ).not.toBeNull();
  });

  it("redelivers on request: the same webhook-id with a new timestamp, a manual attempt, audited; a FAILED callback becomes DELIVERED", async () => {
    receiver.script("/again", [{ status: 500 }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/again`);
    const decided = await decidedLongAgo(partner);
    await waitUntil("failed", settled(decided.callbackId));
    await new Promise((r) => setTimeout(r, 1100)); // a new second for the new webhook-timestamp

    await requestRedelivery(decided.transferId, namedActor("pharmacist@test"));
    const [first, second] = await receiver.waitFor("/again", 2, 10_000);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(Number(second!.headers["webhook-timestamp"])).toBeGreaterThan(Number(first!.headers["webhook-timestamp"]));
    expect(second!.headers["webhook-signature"]).not.toBe(first!.headers["webhook-signature"]);
    expect(verifyStandardWebhook(second!, partner.webhookSecret)).toBe(true);
    expect(second!.body).toBe(first!.body);

    const row = await waitUntil("delivered", async () =>
      (await callbackRow(decided.callbackId)).status === "DELIVERED" ? callbackRow(decided.callbackId) : null,
    );
    expect(row.attempts.map((a) => [a.attemptNumber, a.statusCode, a.manual])).toEqual([
      [1, 500, false],
      [2, 204, true],
    ]);
    const audit = await db().auditEvent.findFirst({
      where: { transferId: decided.transferId, action: "callback.redelivery_requested" },
    });
    expect(audit).toMatchObject({ actor: "pharmacist@test" });
    await expect(requestRedelivery("trf_doesnotexist", SYSTEM_ACTOR)).rejects.toBeInstanceOf(DomainError);
  });

  it("keeps the retry schedule when a manual redelivery fails while a scheduled attempt is in flight", async () => {
    receiver.script("/overlap", [{ hold: true }, { status: 500 }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/overlap`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    await receiver.waitFor("/overlap", 1, 10_000); // attempt 1 hangs until its deadline
    await requestRedelivery(decided.transferId, SYSTEM_ACTOR);
    await receiver.waitFor("/overlap", 2, 10_000); // attempt 2 (manual) fails at once
    const row = await waitUntil("delivered", settled(decided.callbackId), 15_000);
    expect(row.attempts.map((a) => [a.attemptNumber, a.manual, a.statusCode, a.error])).toEqual([
      [1, false, null, `timeout: no answer within ${TIMEOUT_MS} ms`],
      [2, true, 500, null],
      [3, false, 204, null],
    ]);
  });
});

describe("a worker killed mid-delivery, a worker stopped gracefully, a worker started late", () => {
  let databaseUrl: string;
  const workers: WorkerProcess[] = [];
  const env = { ...FAST, CALLBACK_TIMEOUT_MS: "3000" };

  beforeAll(async () => {
    databaseUrl = await useFreshDatabase();
  });

  afterAll(async () => {
    for (const w of workers) await w.kill();
  });

  it("sends what was decided while no worker ran as soon as one starts, and re-sends a callback whose worker was SIGKILLed mid-request under the same webhook-id", async () => {
    receiver.script("/late", [{ status: 204 }]);
    receiver.script("/killed", [{ hold: true }, { status: 204 }]);
    const latePartner = await createCallbackPartner(`${receiver.baseUrl}/late`);
    const killedPartner = await createCallbackPartner(`${receiver.baseUrl}/killed`);
    const late = await decideTransfer({ partner: latePartner, decision: "CONFIRMED" });
    const killed = await decideTransfer({ partner: killedPartner, decision: "ERROR" });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests("/late")).toHaveLength(0);

    const first = await startWorkerProcess({ databaseUrl, authSecret, env });
    workers.push(first);
    // (Killed before it recorded /late's answer, the worker would rightly send /late again after restart.)
    await waitUntil("the late callback delivered", settled(late.callbackId), 10_000);
    const [held] = await receiver.waitFor("/killed", 1, 10_000);
    await first.kill();

    const during = await callbackRow(killed.callbackId);
    expect(during.status).toBe("PENDING");
    expect(during.attempts).toHaveLength(1);
    expect(during.attempts[0]).toMatchObject({ statusCode: null, error: null });

    const second = await startWorkerProcess({ databaseUrl, authSecret, env });
    workers.push(second);
    const [, resent] = await receiver.waitFor("/killed", 2, 20_000);
    expect(resent!.headers["webhook-id"]).toBe(killed.callbackId);
    expect(held!.headers["webhook-id"]).toBe(killed.callbackId);
    expect(resent!.body).toBe(held!.body);
    expect(verifyStandardWebhook(resent!, killedPartner.webhookSecret)).toBe(true);
    const row = await waitUntil("delivered", settled(killed.callbackId));
    expect(row.status).toBe("DELIVERED");
    expect(row.attempts[0]!.error).toMatch(/^interrupted/);
    expect(row.attempts[1]).toMatchObject({ attemptNumber: 2, statusCode: 204 });
    expect((await callbackRow(late.callbackId)).status).toBe("DELIVERED");
    expect(receiver.requests("/late")).toHaveLength(1);
  });

  it("on SIGTERM cuts a hanging attempt short and hands the callback straight to the next worker", async () => {
    receiver.script("/stopping", [{ hold: true }, { status: 204 }]);
    const partner = await createCallbackPartner(`${receiver.baseUrl}/stopping`);
    for (const w of workers) await w.stop();
    // A deadline (15 s) longer than graphile-worker's grace period (5 s): only the stop can end the attempt early.
    const running = await startWorkerProcess({
      databaseUrl,
      authSecret,
      env: { ...env, CALLBACK_TIMEOUT_MS: "15000" },
    });
    workers.push(running);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    await receiver.waitFor("/stopping", 1, 10_000);
    const stopAsked = Date.now();
    await running.stop();
    expect(Date.now() - stopAsked).toBeLessThan(12_000);
    const during = await callbackRow(decided.callbackId);
    expect(during.status).toBe("PENDING");
    expect(during.attempts[0]!.error).toBe("interrupted: the worker is shutting down");
    expect(during.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());

    const next = await startWorkerProcess({ databaseUrl, authSecret, env });
    workers.push(next);
    const row = await waitUntil("delivered", settled(decided.callbackId), 10_000);
    expect(row.attempts.map((a) => a.statusCode)).toEqual([null, 204]);
  });
});

describe("two workers at once", () => {
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    for (const w of workers) await w.stop();
  });

  it("share the callbacks without ever sending an attempt twice", async () => {
    const databaseUrl = await useFreshDatabase();
    receiver.script(
      "/pair",
      [
        { status: 500, delayMs: 30 },
        { status: 204, delayMs: 30 },
      ],
      { perWebhookId: true },
    );
    const partner = await createCallbackPartner(`${receiver.baseUrl}/pair`);
    const decided: string[] = [];
    // Some decided before the workers start, their jobs lost (both workers reconcile that backlog at once),
    // some while they run, with extra reconcile passes racing them (as several instances' crons would).
    for (let i = 0; i < 15; i++)
      decided.push((await decideTransfer({ partner, decision: i % 2 ? "ERROR" : "CONFIRMED" })).callbackId);
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    workers.push(...(await Promise.all([0, 1].map(() => startWorkerProcess({ databaseUrl, authSecret, env: FAST })))));
    for (let i = 0; i < 15; i++) {
      decided.push((await decideTransfer({ partner, decision: "CONFIRMED" })).callbackId);
      await Promise.all([reconcileCallbackJobs(), reconcileCallbackJobs()]);
    }

    await waitUntil(
      "all delivered",
      async () =>
        (await db().callback.count({ where: { id: { in: decided }, status: "DELIVERED" } })) === decided.length,
      40_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // anything sent twice would have arrived by now
    const requests = receiver.requests("/pair");
    const perId = new Map<string, number>();
    for (const r of requests)
      perId.set(String(r.headers["webhook-id"]), (perId.get(String(r.headers["webhook-id"])) ?? 0) + 1);
    expect([...perId.keys()].sort()).toEqual([...decided].sort());
    expect([...perId.values()].every((n) => n === 2)).toBe(true);
    expect(requests.every((r) => verifyStandardWebhook(r, partner.webhookSecret))).toBe(true);

    const attempts = await db().callbackAttempt.findMany({ where: { callbackId: { in: decided } } });
    expect(attempts).toHaveLength(decided.length * 2);
    for (const id of decided) {
      const mine = attempts.filter((a) => a.callbackId === id).sort((a, b) => a.attemptNumber - b.attemptNumber);
      expect(mine.map((a) => [a.attemptNumber, a.statusCode])).toEqual([
        [1, 500],
        [2, 204],
      ]);
    }
    // Both workers did part of the work.
    for (const w of workers) expect(w.output()).toMatch(/"msg":"callback attempt"/);
  });
});

describe("SSRF", () => {
  let worker: WorkerProcess;

  beforeAll(async () => {
    const databaseUrl = await useFreshDatabase();
    worker = await startWorkerProcess({
      databaseUrl,
      authSecret,
      env: { ...FAST, CALLBACK_ALLOW_PRIVATE_NETWORKS: "false" },
    });
  });

  afterAll(async () => {
    await worker?.stop();
    setEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
  });

  it("refuses at send time an URL that is, or resolves to, a loopback, IPv4-mapped or metadata address, without connecting", async () => {
    const port = new URL(receiver.baseUrl).port;
    const cases = [
      {
        url: `http://localhost:${port}/ssrf-name`,
        path: "/ssrf-name",
        reason: /localhost resolves to 127\.0\.0\.1, a loopback address/,
      },
      { url: `http://127.0.0.1:${port}/ssrf-ip`, path: "/ssrf-ip", reason: /127\.0\.0\.1, a loopback address/ },
      {
        url: `http://[::ffff:127.0.0.1]:${port}/ssrf-mapped`,
        path: "/ssrf-mapped",
        reason: /loopback address \(IPv4 inside IPv6\)/,
      },
      { url: "http://169.254.169.254/latest/meta-data/", path: null, reason: /cloud metadata address/ },
    ];
    // Configured while allowed (as if the name pointed elsewhere then): the send-time check is what stops them.
    const decided = [];
    for (const c of cases) {
      const partner = await createCallbackPartner(c.url);
      decided.push({ ...c, ...(await decideTransfer({ partner, decision: "CONFIRMED" })) });
    }
    for (const d of decided) {
      const row = await waitUntil("a refused attempt", async () => {
        const r = await callbackRow(d.callbackId);
        return r.attempts[0]?.error ? r : null;
      });
      expect(row.attempts[0]!.error).toMatch(/^callback address refused: /);
      expect(row.attempts[0]!.error).toMatch(d.reason);
      expect(row.attempts[0]!.statusCode).toBeNull();
      expect(row.status).toBe("PENDING"); // an admin may fix the URL; retries go on
      if (d.path) expect(receiver.requests(d.path)).toHaveLength(0);
    }
  });

  it("refuses such URLs when a partner is configured", async () => {
    setEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "false" });
    for (const url of [
      "http://127.0.0.1/cb",
      "http://localhost:8080/cb",
      "http://[::1]/cb",
      "http://[::ffff:10.0.0.1]/cb",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "https://10.1.2.3/cb",
      "https://192.168.0.10/cb",
      "http://0.0.0.0/",
    ]) {
      await expect(checkCallbackUrl(url), url).rejects.toThrow(/callback URL refused: .*public addresses/);
    }
    await expect(createPartner({ name: "Sneaky", callbackUrl: "http://127.0.0.1:5432/", npis: [] })).rejects.toThrow(
      /loopback/,
    );
    // Public addresses pass; a name that does not resolve yet passes on its form (every send checks again).
    await expect(checkCallbackUrl("https://93.184.216.34/rx-callbacks")).resolves.toBe(
      "https://93.184.216.34/rx-callbacks",
    );
    await expect(checkCallbackUrl("https://sender.example/callbacks")).resolves.toBe(
      "https://sender.example/callbacks",
    );
    setEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
    await expect(checkCallbackUrl("http://127.0.0.1/cb")).resolves.toBe("http://127.0.0.1/cb");
  });
});
