// Ad hoc (not committed): getOverview over 1M transfers, per-statement durations.
import { beforeAll, expect, inject, it } from "vitest";
import { db, disconnectDb, enableQueryEvents } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { getOverview } from "@/lib/overview/get-overview";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const N = Number(process.env.OVERVIEW_ROWS ?? 1_000_000);
const captured: { query: string; duration: number }[] = [];

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_overview_scale");
  await disconnectDb();
  enableQueryEvents();
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  const t0 = Date.now();
  await db().$executeRaw`INSERT INTO partners (id, name, npis, callback_url, webhook_secret)
    SELECT 'prt_' || g, 'Partner ' || g, '{}', 'https://p.example/cb', 'sealed' FROM generate_series(1, 20) g`;
  await db().$executeRaw`INSERT INTO users (id, email, name, password_hash, role) VALUES ('usr_s', 's@x', 'S', 'x', 'pharmacist')`;
  // Over a year, one every ~31 s; 2 % pending.
  await db().$executeRawUnsafe(`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, received_at, decided_at, request, response, response_id)
    SELECT 'trf_' || g, 'prt_' || (g % 20 + 1), 'r' || g, 'h',
      (CASE WHEN g % 50 = 0 THEN 'RECEIVED' WHEN g % 7 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
      'F', 'L', 'l f', '1970-01-01', '1843501234', 'S', '1245319599', 'RX' || g, 'D', '1 mg', false,
      now() - make_interval(secs => g * 31),
      CASE WHEN g % 50 = 0 THEN NULL ELSE now() - make_interval(secs => g * 31) + make_interval(mins => g % 300) END,
      '{"big":"${"x".repeat(2000)}"}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, ${N}) g`);
  await db().$executeRawUnsafe(`
    INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, response)
    SELECT id, (CASE WHEN status = 'REJECTED' THEN 'REJECTED' ELSE 'APPROVED' END)::"Decision", 'usr_s', 'S', decided_at,
      CASE WHEN status = 'REJECTED' THEN 'E' || (length(id) % 5) END, '{}'::jsonb
    FROM transfers WHERE decided_at IS NOT NULL`);
  await db().$executeRawUnsafe(`
    INSERT INTO callbacks (id, transfer_id, partner_id, payload, status, attempt_count, delivered_at, created_at)
    SELECT 'cb_' || id, id, partner_id, '{}'::jsonb, 'DELIVERED', 1, decided_at + interval '2 seconds', decided_at
    FROM transfers WHERE decided_at IS NOT NULL`);
  await db().$executeRawUnsafe(`VACUUM (ANALYZE) transfers, transfer_decisions, callbacks`);
  console.log(`seeded ${N} in ${Math.round((Date.now() - t0) / 1000)} s`);
  const client = db() as unknown as { $on(event: "query", cb: (e: { query: string; duration: number }) => void): void };
  client.$on("query", (e) => captured.push({ query: e.query, duration: e.duration }));
}, 1_200_000);

it("getOverview at scale", async () => {
  const totals: number[] = [];
  for (let i = 0; i < 8; i++) {
    captured.length = 0;
    const t = performance.now();
    const o = await getOverview({ withPartners: true, timeZone: "America/Chicago" });
    totals.push(performance.now() - t);
    if (i === 7) {
      expect(o.last30Days.days).toHaveLength(30);
      for (const c of captured) console.log(`${c.duration} ms  ${c.query.replace(/\s+/g, " ").slice(0, 110)}`);
    }
  }
  console.log("getOverview ms:", totals.map((x) => Math.round(x)).join(" "));
  for (const sql of [
    `EXPLAIN (ANALYZE, BUFFERS) SELECT to_char(t.received_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD'), count(*) FROM transfers t LEFT JOIN callbacks c ON c.transfer_id = t.id WHERE t.received_at >= now() - interval '30 days' AND t.received_at <= now() - interval '4 hours' AND (t.decided_at IS NULL OR t.decided_at > t.received_at + interval '4 hours' OR (c.id IS NOT NULL AND (c.delivered_at IS NULL OR c.delivered_at > t.received_at + interval '4 hours'))) GROUP BY 1`,
    `EXPLAIN (ANALYZE, BUFFERS) SELECT to_char(d.decided_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD'), count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.decided_at - t.received_at)) FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id WHERE d.decided_at >= now() - interval '30 days' GROUP BY 1`,
  ]) {
    const rows = await db().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(sql);
    console.log(rows.map((r) => r["QUERY PLAN"]).join("\n"));
  }
  await disconnectDb();
}, 600_000);
