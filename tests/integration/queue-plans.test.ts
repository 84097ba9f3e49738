// The plans of the statements the queue sends (lib/transfers/queries/queue.ts, compiled as listQueue compiles
// them), over enough transfers that a wrong shape shows: each page is read in index order from the keyset on,
// never sorted or read whole; a search reads its indexes; a count stops at the cap.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Compilable } from "kysely";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { countQueueStatus, runQueueStatement, selectQueuePage, type Phase } from "@/lib/transfers/queue";
import { COUNT_CAP, QueueQuerySchema } from "@/lib/transfers/queue";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const ROWS = 200_000;
const now = new Date();

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_queue_plans");
  await disconnectDb();
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await db()
    .$executeRaw`INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES ('prt_plans', 'Plans Sender', '{}', 'https://sender.example/cb', 'sealed')`;
  // Mostly decided, a few hundred pending, one a minute; classified clean, as the intake stores them.
  await db().$executeRaw`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, check_flags, received_at, request, response, response_id)
    SELECT 'trf_p' || lpad(g::text, 8, '0'), 'prt_plans', 'req' || g, 'h',
      (CASE WHEN g % 1000 = 0 THEN 'RECEIVED' WHEN g % 7 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
      'First', 'Last' || (g % 40000), 'last' || (g % 40000) || ' first', date '1940-01-01' + (g % 25000),
      '1843501234', 'Plans Sender', '1245319599', 'RX' || g, 'Drug', '10 mg', g % 3 = 0,
      CASE WHEN g % 4 = 0 THEN 'IV' ELSE 'none' END, '{}', now() - make_interval(mins => g),
      '{}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, ${ROWS}) g`;
  await db().$executeRaw`ANALYZE transfers`;
}, 600_000);

afterAll(async () => {
  await disconnectDb();
});

async function plan(statement: Compilable<unknown>): Promise<string> {
  const { sql, parameters } = statement.compile();
  const rows = await db().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN (COSTS OFF) ${sql}`, ...parameters);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

function page(params: Record<string, unknown>, phase: Phase, after: { receivedAt: Date; id: string } | null = null) {
  return selectQueuePage({ query: QueueQuerySchema.parse(params), phase, after, limit: 51, now });
}

const deep = { receivedAt: new Date(now.getTime() - 100_000 * 60_000), id: "trf_p00100000" };

const inOrder = /Index Scan (Backward )?using transfers_(status_)?received_at_id_idx on transfers t/;

function expectIndexOrder(text: string) {
  expect(text, text).not.toMatch(/\bSort\b/);
  expect(text, text).not.toMatch(/Seq Scan on transfers/);
}

describe(`the queue's statements over ${ROWS.toLocaleString()} transfers`, () => {
  it("read a page in index order, from the keyset on, in either direction and phase", async () => {
    for (const statement of [page({}, 0), page({ sort: "newest" }, 0), page({ status: "all" }, 0)]) {
      const text = await plan(statement);
      expect(text, text).toMatch(inOrder);
      expectIndexOrder(text);
    }
    for (const [statement, op] of [
      [page({ status: "CONFIRMED" }, 1, deep), ">"],
      [page({ status: "all", sort: "newest" }, 1, deep), "<"],
      [page({}, 0, deep), ">"],
    ] as const) {
      const text = await plan(statement);
      expect(text, text).toMatch(inOrder);
      expect(text, text).toContain(`ROW(received_at, id) ${op} ROW(`);
      expectIndexOrder(text);
    }
  });

  it("filter the pending phase on its indexes: sender and allergies, a schedule, the stored warnings", async () => {
    for (const params of [{ sender: "prt_plans", flags: ["allergies"] }, { schedule: "IV" }]) {
      const text = await plan(page(params, 0));
      expect(text, text).toContain("Index Cond: ((status = 'RECEIVED'::\"TransferStatus\")");
      expect(text, text).toContain("transfers_status_partner_id_has_allergies_drug_schedule_idx");
      expect(text, text).not.toMatch(/Seq Scan on transfers/);
    }
    // Nothing here is flagged: the warnings are read from the index of the day each transfer starts to show
    // (transfer_warnings_from), not filtered out of every row of the status; the store's zone by its key.
    const warnings = await plan(page({ flags: ["warnings"] }, 0));
    expect(warnings, warnings).toContain("transfers_status_warnings_from_idx");
    expect(warnings, warnings).toContain("stores_npi_key");
    expect(warnings, warnings).not.toMatch(/Seq Scan on transfers/);
  });

  it("count the warnings from their index, so a status with few (or none) is not read whole", async () => {
    const query = QueueQuerySchema.parse({ flags: ["warnings"] });
    for (const status of ["RECEIVED", "CONFIRMED", "REJECTED"] as const) {
      const text = await plan(countQueueStatus(query, status, now, COUNT_CAP));
      expect(text, text).toContain("Index Cond: ((status = ");
      expect(text, text).toContain("transfers_status_warnings_from_idx");
    }
  });

  it("search by name, drug, rxNumber, date of birth and referenceID on their indexes", async () => {
    const name = await plan(page({ status: "all", q: "last1234 first" }, 1));
    for (const index of [
      "transfers_rx_number_idx",
      "transfers_patient_search_status_received_at_id_idx",
      "transfers_drug_search_idx",
    ])
      expect(name, name).toContain(index);
    expect(name, name).not.toMatch(/Seq Scan on transfers/);
    const dob = await plan(page({ status: "all", q: "1960-05-04" }, 1));
    expect(dob, dob).toContain("transfers_patient_dob_idx");
    expect(dob, dob).not.toMatch(/Seq Scan on transfers/);
    const id = await plan(page({ status: "all", q: "trf_p00001234" }, 1));
    expect(id, id).toContain("transfers_pkey");
    expect(id, id).not.toMatch(/Seq Scan on transfers/);
  });

  it("count at most the cap + 1 rows of a status", async () => {
    const query = QueueQuerySchema.parse({});
    const pending = await plan(countQueueStatus(query, "RECEIVED", now, COUNT_CAP));
    expect(pending, pending).toMatch(/Limit\n.*Index Only Scan using transfers_status_/);
    const counted = await runQueueStatement(countQueueStatus(query, "CONFIRMED", now, COUNT_CAP));
    expect(counted).toEqual([{ n: COUNT_CAP + 1 }]);
  });
});
