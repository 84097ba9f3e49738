// Operations over real HTTP: /healthz and /readyz on npm start's fast path, readiness failures named by
// their check (migrations out of step with the code, shutdown drain), /metrics behind METRICS_TOKEN and on
// METRICS_PORT (127.0.0.1), and what the metrics show after real traffic, without patient data or ids.
// A second `npm start` on the integration database, with the operations settings this file needs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { freePort, startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const TOKEN = "metrics-token-for-tests-0123456789";
let server: TestServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  server = await startTestServer({
    databaseUrl,
    env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort), SHUTDOWN_DRAIN_SECONDS: "3" },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });

describe("/healthz", () => {
  it("answers 200 without touching anything, GET and HEAD, without a session", async () => {
    const res = await get("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
    expect((await fetch(`${server.baseUrl}/healthz`, { method: "HEAD" })).status).toBe(200);
  });
});

describe("/readyz", () => {
  it("is 200 with the database, the migrations and the worker's heartbeat checked", async () => {
    const res = await get("/readyz");
    const body = (await res.json()) as { status: string; checks: { name: string; ok: boolean }[] };
    expect(res.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks).toEqual([
      { name: "database", ok: true },
      { name: "migrations", ok: true },
      { name: "worker", ok: true },
    ]);
  });

  it("is 503 naming the migrations check when the database has a migration this code does not know", async () => {
    const name = "29991231000000_from_a_newer_release";
    await db().$executeRaw`
      INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
      VALUES (gen_random_uuid()::text, 'x', ${name}, now(), now(), 1)`;
    try {
      const res = await get("/readyz");
      const body = (await res.json()) as { checks: { name: string; ok: boolean; detail?: string }[] };
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      const check = body.checks.find((c) => c.name === "migrations");
      expect(check?.ok).toBe(false);
      expect(check?.detail).toContain(name);
      expect(body.checks.find((c) => c.name === "database")?.ok).toBe(true);
    } finally {
      await db().$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${name}`;
    }
    expect((await get("/readyz")).status).toBe(200);
  });
});

describe("/metrics", () => {
  it("answers 401 without the bearer token or with another one", async () => {
    const none = await get("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await get("/metrics", { authorization: "Bearer not-the-token-at-all-000" })).status).toBe(401);
    expect((await get("/metrics", { authorization: TOKEN })).status).toBe(401);
  });

  it("shows intake, pending transfers and process metrics after real traffic, with no referenceID nor partner name", async () => {
    const partner = await createTestPartner("Metrics");
    const request = freshRequest();
    const first = await send(server.baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
    expect(first.status).toBe(200);
    expect(
      (await send(server.baseUrl, { body: request, authorization: senderKey(partner.apiKey) })).headers.get(
        "idempotent-replayed",
      ),
    ).toBe("true");
    expect((await send(server.baseUrl, { body: {}, authorization: senderKey(partner.apiKey) })).status).toBe(400);

    const res = await get("/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/rx_v1_requests_total\{route="POST \/v1\/transfer",status="200",error_type="none"\} [1-9]/);
    expect(text).toMatch(
      /rx_v1_requests_total\{route="POST \/v1\/transfer",status="400",error_type="MISSING_INFO"\} [1-9]/,
    );
    expect(text).toMatch(/rx_transfers_received_total\{outcome="created"\} [1-9]/);
    expect(text).toMatch(/rx_transfers_received_total\{outcome="replayed"\} [1-9]/);
    expect(text).toMatch(/rx_v1_request_duration_seconds_bucket\{le="0.5",route="POST \/v1\/transfer"\} \d+/);
    expect(text).toMatch(/rx_transfers_pending\{age="0-1h"\} [1-9]/);
    expect(text).toMatch(/rx_transfers_pending_oldest_age_seconds \d/);
    expect(text).toMatch(/rx_job_queue_lag_seconds \d/);
    expect(text).toMatch(/rx_metrics_database_up 1/);
    expect(text).toMatch(/rx_ready 1/);
    expect(text).toMatch(/rx_db_pool_connections\{state="in_use"\} \d/);
    expect(text).toMatch(/rx_process_cpu_seconds_total \d/);
    expect(text).not.toContain(first.body.metadata.referenceID);
    expect(text).not.toMatch(/Metrics [0-9a-f]{8}/); // the partner's name (createTestPartner: "Metrics <8 hex>")
    expect(text).not.toContain(request.patient.name.lastName);
  });

  it("is served without a token on METRICS_PORT, bound to 127.0.0.1, and nothing else there", async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("rx_v1_requests_total");
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
    await expect(fetch(`http://[::1]:${metricsPort}/metrics`)).rejects.toThrow();
  });
});

describe("shutdown", () => {
  it("answers /readyz 503 (check: shutdown) at once on SIGTERM, keeps serving during the drain, then exits 0", async () => {
    server.signal("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    const res = await get("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: "not ready",
      checks: [{ name: "shutdown", ok: false, detail: "this instance is shutting down" }],
    });
    expect((await get("/healthz")).status).toBe(200);
    expect(await server.exited()).toBe(0);
  }, 30_000);
});
