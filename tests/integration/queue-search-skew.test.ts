// The queue's name search over a skewed table (in a database of its own): most transfers belong to one common
// surname, spread over every status and date, a few first names each, with a drug name and an rxNumber that
// the same search text also matches. Checked here: page after page, in both orders, every status view and with
// filters, the queue lists the same rows in the same order as one direct query of the four match rules; and,
// from the plan of the page statement (EXPLAIN ANALYZE, FORMAT JSON), that it reads a bounded number of rows
// from transfers, about a page per name and status, not every transfer of the surname. Rows read, not time.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { listQueue, parseQueueQuery, QueueQuerySchema, selectQueuePage } from "@/lib/transfers/queue";
import { createMigratedDatabase } from "@/tests/support/database";
import { nodesOf, transferRowsRead, type PlanNode } from "@/tests/support/plan-nodes";
import { TEST_SECRETS } from "@/tests/support/server";

const ROWS = 60_000;
const actor = { id: "usr_skew", email: "skew@test.example", name: "Skew Test", role: "pharmacist" as const };
const FIRST_NAMES = ["james", "jane", "jason", "ja", "maria", "john"];

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_search_skew");
  await disconnectDb();
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await db().$executeRaw`
    INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES
      ('prt_a', 'Sender A', '{}', 'https://a.example/cb', 'sealed'),
      ('prt_b', 'Sender B', '{}', 'https://b.example/cb', 'sealed')`;
  // Three in five are Garcias; the dates are scattered over ~35 days to the minute, so that many rows share
  // one received_at and the id breaks the tie. One in 501 is "Ja Garcia" (the search typed first name
  // first), one in 97 takes Garcinia (a drug the prefix "garc" matches), and one has the rxNumber "garcia ja".
  // The Lopezes have 40 first names: more than a prefix is read name by name for (NAMES_PER_PREFIX).
  await db().$executeRaw`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, received_at, request, response, response_id)
    SELECT 'trf_g' || lpad(g::text, 6, '0'), CASE WHEN g % 2 = 0 THEN 'prt_a' ELSE 'prt_b' END, 'req' || g, 'h',
      (CASE WHEN g % 41 = 0 THEN 'RECEIVED' WHEN g % 9 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
      initcap(n.first), initcap(n.last), n.last || ' ' || n.first, date '1950-01-01' + (g % 9000),
      '1843501234', 'Sender', '1245319599', CASE WHEN g = 777 THEN 'garcia ja' ELSE 'RX' || g END,
      CASE WHEN g % 97 = 0 THEN 'Garcinia' ELSE 'Drug' END, '10 mg', g % 3 = 0, 'none',
      now() - make_interval(mins => (g * 7919) % 50000), '{}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, ${ROWS}) g
    CROSS JOIN LATERAL (SELECT
      CASE WHEN g % 501 = 0 THEN 'ja' WHEN g % 5 < 3 THEN 'garcia' ELSE (ARRAY['smith', 'jameson', 'lopez'])[1 + g % 3] END AS last,
      CASE WHEN g % 501 = 0 THEN 'garcia' WHEN g % 5 >= 3 AND g % 3 = 2 THEN 'x' || ((g / 15) % 40)
           ELSE (${FIRST_NAMES}::text[])[1 + (g / 5) % ${FIRST_NAMES.length}] END AS first) n`;
  await db().$executeRaw`VACUUM (ANALYZE) transfers`;
}, 600_000);

afterAll(async () => {
  await disconnectDb();
});

type Case = {
  params: Record<string, string>;
  /** The patterns the text means: patient_search LIKE any of them, drug_search LIKE the first. */
  patterns: string[];
};

/** The search's rows in the queue's order, by one direct query of its four match rules. */
async function reference({ params, patterns }: Case, limit: number): Promise<string[]> {
  const status = params.status ?? "RECEIVED";
  const conds = [
    Prisma.sql`(rx_number = ${params.q} OR patient_search LIKE ANY(${patterns}) OR drug_search LIKE ${patterns[0]})`,
  ];
  if (status !== "all") conds.push(Prisma.sql`status::text = ${status}`);
  if (params.sender) conds.push(Prisma.sql`partner_id = ${params.sender}`);
  if (params.flags === "allergies") conds.push(Prisma.sql`has_allergies`);
  if (params.from) conds.push(Prisma.sql`received_at >= ${new Date(params.from)}`);
  if (params.to) conds.push(Prisma.sql`received_at < ${new Date(params.to)}`);
  const order =
    params.sort === "newest"
      ? Prisma.sql`status <> 'RECEIVED', received_at DESC, id DESC`
      : Prisma.sql`status <> 'RECEIVED', received_at, id`;
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM transfers WHERE ${Prisma.join(conds, " AND ")} ORDER BY ${order} LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** The queue's pages, following its cursors, up to `pages` of them. */
async function queuePages(params: Record<string, string>, pages: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const query = parseQueueQuery(new URLSearchParams({ ...params, ...(cursor ? { cursor } : {}) }));
    const page = await listQueue(query, { actor, clientAddress: null });
    ids.push(...page.items.map((item) => item.referenceID));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe(`the queue's name search over ${ROWS.toLocaleString()} transfers, most of one surname`, () => {
  it("lists the same rows in the same order as a direct query of its match rules, page after page", async () => {
    const cases: Case[] = [
      { params: { q: "garcia ja", status: "all", limit: "200" }, patterns: ["garcia ja%", "ja garcia%"] },
      {
        params: { q: "garcia ja", status: "all", sort: "newest", limit: "200" },
        patterns: ["garcia ja%", "ja garcia%"],
      },
      { params: { q: "Garcia, James", status: "all", limit: "150" }, patterns: ["garcia james%", "james garcia%"] },
      {
        params: { q: "james garcia", status: "CONFIRMED", limit: "100" },
        patterns: ["james garcia%", "garcia james%"],
      },
      { params: { q: "garcia", status: "REJECTED", sort: "newest" }, patterns: ["garcia%"] },
      { params: { q: "garc", status: "all", limit: "200" }, patterns: ["garc%"] },
      { params: { q: "ja" }, patterns: ["ja%"] },
      { params: { q: "lopez", status: "all", limit: "100" }, patterns: ["lopez%"] },
      { params: { q: "lopez x1", status: "CONFIRMED", sort: "newest" }, patterns: ["lopez x1%", "x1 lopez%"] },
      { params: { q: "garcia ja", limit: "40" }, patterns: ["garcia ja%", "ja garcia%"] },
      {
        params: { q: "garcia ja", status: "all", sender: "prt_a", flags: "allergies", limit: "60" },
        patterns: ["garcia ja%", "ja garcia%"],
      },
      {
        params: { q: "garcia j", status: "all", from: days(20), to: days(10), sort: "newest", limit: "100" },
        patterns: ["garcia j%", "j garcia%"],
      },
    ];
    for (const c of cases) {
      const limit = Number(c.params.limit ?? 50);
      const pages = 6;
      const got = await queuePages(c.params, pages);
      const expected = await reference(c, limit * pages);
      expect(got.length, JSON.stringify(c.params)).toBeGreaterThan(limit);
      expect(got, JSON.stringify(c.params)).toEqual(expected);
    }
    // The rxNumber and the name typed first name first are found among the Garcias.
    const all = await queuePages({ q: "garcia ja", status: "all", limit: "200" }, 1000);
    expect(all).toContain("trf_g000777");
    expect(all).toContain("trf_g000501");
    expect(all).toEqual(
      await reference({ params: { q: "garcia ja", status: "all" }, patterns: ["garcia ja%", "ja garcia%"] }, ROWS),
    );
  });

  it("reads about a page per name and status from transfers, not every transfer of the surname", async () => {
    const query = QueueQuerySchema.parse({ status: "all", q: "garcia ja" });
    const matches = await reference(
      { params: { q: "garcia ja", status: "all" }, patterns: ["garcia ja%", "ja garcia%"] },
      ROWS,
    );
    expect(matches.length).toBeGreaterThan(10_000);
    for (const phase of [0, 1] as const) {
      const { sql, parameters } = selectQueuePage({ query, phase, after: null, limit: 51, now: new Date() }).compile();
      const answer = await db().$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        ...parameters,
      );
      const plan = answer[0]!["QUERY PLAN"][0].Plan;
      const text = JSON.stringify(plan, null, 1);
      const nodes = nodesOf(plan);
      expect(
        nodes.some((n) => n["Index Name"] === "transfers_patient_search_status_received_at_id_idx"),
        text,
      ).toBe(true);
      // Four names start "garcia ja" and one "ja garcia"; each is read for at most a page per status of the
      // phase (two decided ones), plus the descents between names and the page's rows read for their columns.
      expect(transferRowsRead(nodes), text).toBeLessThan(5 * 2 * 51 + 200);
    }
  });
});
