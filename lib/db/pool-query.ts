// A few hot statements go straight to the pg pool under the one Prisma client (lib/db/prisma.ts: same pool,
// same connections, same /metrics counts) instead of Prisma's $queryRaw: the intake's key-checked insert
// (lib/transfers/receive-transfer.ts) and the callback worker's batch claim and batch successes
// (lib/callbacks/claim-due-callbacks.ts, record-callback-successes.ts).
//
// Why: even a raw statement passes through Prisma 7's WASM query compiler, its tracing and its result
// Mapping. That was ~14 % of the intake's CPU and ~30 % of the batching worker's (bench/README.md),
// for one or two statements each. Each is a single autocommit statement, as it was under $queryRaw; every
// other query stays on Prisma. Errors are plain pg errors, which lib/db/errors.ts recognises as well.
import type pg from "pg";
import type { Prisma } from "@/generated/prisma/client";
import { dbPool } from "@/lib/db/prisma";

/**
 * One parameterised statement built with Prisma.sql: its values are sent as $n, never spliced into the text.
 * `preparedAs` names a statement whose text never changes: each connection then parses and plans it once and
 * afterwards only binds values, which the per-request statements (the intake's insert, its rate-limit lease)
 * would otherwise pay for every time in PostgreSQL's CPU, on the same cores as the server.
 */
export async function poolQuery<T extends pg.QueryResultRow>(statement: Prisma.Sql, preparedAs?: string): Promise<T[]> {
  const { rows } = preparedAs
    ? await dbPool().query<T>({ name: preparedAs, text: statement.text, values: statement.values })
    : await dbPool().query<T>(statement.text, statement.values);
  return rows;
}
