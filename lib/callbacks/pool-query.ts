// The callback worker's two hot statements, the batch claim (claim-due-callbacks.ts) and the batch's
// successes (record-callback-successes.ts), go straight to the pg pool under the one Prisma client
// (lib/db/prisma.ts: same pool, same connections, same /metrics counts) instead of Prisma's $queryRaw.
//
// Why: even a raw statement passes through Prisma 7's WASM query compiler and its result mapping; in the
// batching worker that was the largest single cost (round 3's profile: Prisma ~30 % of the worker's CPU,
// the compiler 17 %, for about two statements per batch; bench/README.md). Both statements are single
// autocommit statements, as they were under $queryRaw; every other query of the worker, and of the
// service, stays on Prisma.
import type pg from "pg";
import { dbPool } from "@/lib/db/prisma";

/** A tagged template as one parameterised statement: each `${value}` is sent as $n, never spliced into the text. */
export async function poolQuery<T extends pg.QueryResultRow>(
  strings: TemplateStringsArray,
  ...values: unknown[]
): Promise<T[]> {
  const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
  const { rows } = await dbPool().query<T>(text, values);
  return rows;
}
