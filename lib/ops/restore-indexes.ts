// A restore loads every row in one transaction; keeping each secondary index up to date row by row costs far
// more than building it once over the loaded table (a sort per index instead of a descent per row). So the
// load drops them first and builds them again after the last row, in the same transaction: a failed load,
// or a duplicate a unique index refuses, rolls back with everything else, and the schema ends as the
// migrations left it (same names, same definitions, from pg_get_indexdef). Indexes that back a constraint
// (primary keys, and those a foreign key references) stay: dropping them would mean dropping constraints; so do
// an index named as a table's replica identity or CLUSTER order, which a plain CREATE INDEX would not restore.
import type pg from "pg";
import { SCHEMAS } from "@/lib/ops/backup-tables";

export type DroppedIndex = { name: string; definition: string };

/** Drops the indexes of our schemas that no constraint needs, answering how to create them again. */
export async function dropSecondaryIndexes(client: pg.Client): Promise<DroppedIndex[]> {
  const { rows } = await client.query<DroppedIndex>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(ic.relname) AS name,
            pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = ic.relnamespace
      WHERE n.nspname = ANY($1) AND NOT i.indisreplident AND NOT i.indisclustered
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = i.indexrelid AND d.deptype = 'i')
      ORDER BY ic.relname`,
    [SCHEMAS],
  );
  for (const index of rows) await client.query(`DROP INDEX ${index.name}`);
  return rows;
}

/** Creates the dropped indexes again; onEach hears how many are built so far. */
export async function createIndexesAgain(
  client: pg.Client,
  indexes: DroppedIndex[],
  onEach?: (built: number) => void,
): Promise<void> {
  for (const [i, index] of indexes.entries()) {
    await client.query(index.definition);
    onEach?.(i + 1);
  }
}
