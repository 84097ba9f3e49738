// The tables a backup covers: listed from the catalog parents first, named in SQL, and fingerprinted (row
// count and content hash) to compare a restore with its source.
import pg from "pg";

export const SCHEMAS = ["public", "graphile_worker"];

export type TableSpec = { schema: string; name: string; columns: string[] };

export const qualified = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`;
export const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
export const sqlName = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {}); // surfaces through the awaited queries
  await client.connect();
  return client;
}

/** Tables of our schemas with their stored (non-generated) columns, parents before the tables that reference them. */
export async function listTables(client: pg.Client): Promise<TableSpec[]> {
  const { rows } = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1)
      GROUP BY n.nspname, c.relname ORDER BY n.nspname, c.relname`,
    [SCHEMAS],
  );
  const { rows: refs } = await client.query<{ child: string; parent: string }>(
    `SELECT cn.nspname || '.' || c.relname AS child, pn.nspname || '.' || p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
       JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
      WHERE k.contype = 'f' AND cn.nspname = ANY($1) AND k.conrelid <> k.confrelid`,
    [SCHEMAS],
  );
  const parents = new Map<string, string[]>();
  for (const r of refs) parents.set(r.child, [...(parents.get(r.child) ?? []), r.parent]);
  const byName = new Map(rows.map((t) => [qualified(t), t]));
  const ordered: TableSpec[] = [];
  const seen = new Set<string>();
  const visit = (name: string, depth: number) => {
    if (seen.has(name) || depth > byName.size) return;
    for (const p of parents.get(name) ?? []) visit(p, depth + 1);
    if (seen.has(name)) return;
    seen.add(name);
    const table = byName.get(name);
    if (table) ordered.push(table);
  };
  for (const name of byName.keys()) visit(name, 0);
  return ordered;
}

/**
 * Counts spread over shards so that concurrent writers do not wait on one row: what they hold is each key's
 * sum, which a restore rebuilds from the rows they count (on one shard), so that is what is compared.
 */
const SPREAD_COUNTS: Record<string, string> = {
  "public.transfer_decision_hours": `SELECT hour, decision, schedule, sum(count)::int AS count FROM ONLY public.transfer_decision_hours GROUP BY 1, 2, 3 HAVING sum(count) <> 0`,
};

/** Row count and content hash of every table: what a restore must reproduce (tests, and after a restore). */
export async function tableFingerprints(databaseUrl: string): Promise<Record<string, { rows: number; md5: string }>> {
  const client = await connect(databaseUrl);
  try {
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const t of await listTables(client)) {
      const source = SPREAD_COUNTS[qualified(t)] ?? `SELECT ${t.columns.map(ident).join(", ")} FROM ONLY ${sqlName(t)}`;
      const { rows } = await client.query<{ n: number; md5: string | null }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) AS md5
           FROM (SELECT to_json(x)::text AS r FROM (${source}) x) rows`,
      );
      out[qualified(t)] = { rows: rows[0]!.n, md5: rows[0]!.md5 ?? "" };
    }
    return out;
  } finally {
    await client.end().catch(() => {});
  }
}
