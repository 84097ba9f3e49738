// The SQL a domain operation sends, captured from Prisma's query events, and its plan (EXPLAIN ANALYZE) on
// the same table: the queue's figures come with the indexes each read used.
import pg from "pg";
import { db } from "@/lib/db/prisma";

export type Captured = { query: string; params: string };
export type QueryCapture = { take(): Captured[] };

/** Starts capturing; take() answers what was sent since the last take(). */
export function captureQueries(): QueryCapture {
  let captured: Captured[] = [];
  const client = db() as unknown as { $on(event: "query", cb: (e: Captured) => void): void };
  client.$on("query", (e) => captured.push({ query: e.query, params: e.params }));
  return {
    take: () => {
      const out = captured;
      captured = [];
      return out;
    },
  };
}

export async function explain(databaseUrl: string, q: Captured): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const params = JSON.parse(q.params) as unknown[];
    const rows = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${q.query}`,
      params,
    );
    return rows.rows.map((r) => r["QUERY PLAN"]);
  } finally {
    await client.end();
  }
}
