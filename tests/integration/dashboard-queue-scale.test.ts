// The queue with a million transfers (in a database of its own): first and deep pages, every status, the
// "all" view, search and counts answer quickly, and the plans read indexes in order (keyset) instead of
// sorting or skipping rows.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { listQueue, type QueuePage, parseQueueQuery } from "@/lib/transfers/queue";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const ROWS = 1_000_000;
const actor = { id: "usr_scale", email: "scale@test.example", name: "Scale Test", role: "pharmacist" as const };

async function timed(params: Record<string, string>): Promise<{ page: QueuePage; ms: number }> {
  const started = performance.now();
  const page = await listQueue(parseQueueQuery(new URLSearchParams(params)), { actor, clientAddress: null });
  return { page, ms: performance.now() - started };
}

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_scale");
  await disconnectDb();
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await db()
    .$executeRaw`INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES ('prt_scale', 'Scale Sender', '{}', 'https://sender.example/cb', 'sealed')`;
  // Mostly decided, a few hundred pending, received over ~2 years (one a minute).
  await db().$executeRaw`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, received_at, request, response, response_id)
    SELECT 'trf_s' || lpad(g::text, 8, '0'), 'prt_scale', 'req' || g, 'h',
      (CASE WHEN g % 3000 = 0 THEN 'RECEIVED' WHEN g % 7 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
      'First', 'Last' || (g % 40000), 'last' || (g % 40000) || ' first', date '1940-01-01' + (g % 25000),
      '1843501234', 'Scale Sender', '1245319599', 'RX' || g, 'Drug', '10 mg', g % 3 = 0, CASE WHEN g % 4 = 0 THEN 'II' ELSE 'none' END,
      now() - make_interval(mins => g), '{}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, ${ROWS}) g`;
  await db().$executeRaw`ANALYZE transfers`;
}, 600_000);

afterAll(async () => {
  await disconnectDb();
});

describe(`the queue over ${ROWS.toLocaleString()} transfers`, () => {
  it("answers first and deep pages of every view quickly", async () => {
    const budget = 400;
    const views: Record<string, string>[] = [
      {},
      { sort: "newest" },
      { status: "CONFIRMED" },
      { status: "REJECTED", sort: "newest" },
      { status: "all" },
      { status: "all", flags: "allergies,controlled" },
      {
        status: "CONFIRMED",
        from: new Date(Date.now() - 400 * 86_400_000).toISOString(),
        to: new Date(Date.now() - 300 * 86_400_000).toISOString(),
      },
    ];
    for (const view of views) {
      let cursor: string | null = null;
      // First page, then four pages further on.
      for (let pageNo = 0; pageNo < 5; pageNo++) {
        const { page, ms }: { page: QueuePage; ms: number } = await timed({ ...view, ...(cursor ? { cursor } : {}) });
        expect(ms, `${JSON.stringify(view)} page ${pageNo + 1}`).toBeLessThan(budget);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
    }
    const first = await timed({});
    expect(first.page.counts.RECEIVED).toEqual({ count: Math.floor(ROWS / 3000), capped: false });
    expect(first.page.counts.CONFIRMED.capped).toBe(true);
    expect(first.page.items).toHaveLength(50);
  });

  it("searches by name prefix, DOB, rxNumber and referenceID quickly", async () => {
    for (const q of ["last1234 first", "last3999", "1960-05-04", "05/04/1960", "RX777777", "trf_s00777777"]) {
      const { page, ms } = await timed({ status: "all", q });
      expect(ms, q).toBeLessThan(400);
      expect(page.items.length, q).toBeGreaterThan(0);
    }
  });

  it("reads pages in index order (keyset), without sorting or skipping rows", async () => {
    const t = new Date(Date.now() - 500 * 86_400_000);
    for (const status of ["CONFIRMED", "RECEIVED"]) {
      const plan = await db().$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`
        EXPLAIN (ANALYZE, BUFFERS) SELECT t.id FROM transfers t
         WHERE t.status = ${status}::"TransferStatus" AND (t.received_at, t.id) > (${t}, 'trf_s00000000')
         ORDER BY t.received_at, t.id LIMIT 51`);
      const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text, text).toMatch(/Index (Only )?Scan using transfers_(status_)?received_at_id_idx/);
      expect(text, text).toMatch(/Index Cond: .*ROW\(received_at, id\) >/);
      expect(text, text).not.toMatch(/\bSort\b/);
      expect(text, text).not.toMatch(/Seq Scan/);
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1]);
      expect(ms).toBeLessThan(50);
    }
  });
});
