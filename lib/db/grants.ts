// Least-privilege grants for the application's database role on an external PostgreSQL. The owner role runs
// `npm run db:deploy` (migrations, the job queue's schema); the app role (`npm start`, the worker, the CLI)
// may read and write the tables it works on, but only INSERT and SELECT the audit log and the decisions
// (append-only), and may not TRUNCATE, alter or own anything. Triggers then guard those tables against the
// app, and the keyed hash chain against the owner.
import pg from "pg";

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Tables the app appends to and reads, never changes. */
const APPEND_ONLY = new Set(["audit_events", "transfer_decisions", "integration_feed"]);
/** Tables the app only reads (it checks that migrations are applied; db:deploy applies them). */
const READ_ONLY = new Set(["_prisma_migrations"]);

type Relation = { schema: string; name: string; kind: "r" | "p" | "v" | "S" };

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function assertRoleName(role: string): void {
  if (!ROLE_NAME.test(role))
    throw new Error(
      `--role must be a PostgreSQL role name in lower case (letters, digits, _), e.g. rx_app; got "${role}"`,
    );
}

/** The GRANT statements for `role`, from the database's catalogue (so every table of this release is covered). */
export async function buildGrantStatements(databaseUrl: string, role: string): Promise<string> {
  assertRoleName(role);
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const db = (await client.query<{ db: string; me: string }>("SELECT current_database() AS db, current_user AS me"))
      .rows[0]!;
    const { rows } = await client.query<Relation>(
      `SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('public', 'graphile_worker') AND c.relkind IN ('r', 'p', 'v', 'S')
        ORDER BY n.nspname, c.relkind, c.relname`,
    );
    const r = ident(role);
    const lines = [
      `-- Least-privilege grants for the application role ${role} on database ${db.db}, as printed by`,
      "-- `npm run db:deploy -- --print-grants --role " + role + "`. Run them as the owner (" + db.me + ") after every",
      "-- db:deploy (a release may add tables). Create the role first, e.g. CREATE ROLE " +
        role +
        " LOGIN PASSWORD '...';",
      "-- and give `npm start`, the worker and the CLI a DATABASE_URL that signs in as it.",
      "BEGIN;",
      `GRANT CONNECT ON DATABASE ${ident(db.db)} TO ${r};`,
      `GRANT USAGE ON SCHEMA public TO ${r};`,
      // Whatever was granted before (e.g. by hand) goes first, so the result is exactly what follows.
      `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${r};`,
      `REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${r};`,
      `REVOKE CREATE ON SCHEMA public FROM ${r};`,
    ];
    for (const rel of rows.filter((x) => x.schema === "public")) {
      const name = `public.${ident(rel.name)}`;
      if (rel.kind === "S") lines.push(`GRANT USAGE, SELECT ON SEQUENCE ${name} TO ${r};`);
      else if (rel.kind === "v" || READ_ONLY.has(rel.name)) lines.push(`GRANT SELECT ON TABLE ${name} TO ${r};`);
      else if (APPEND_ONLY.has(rel.name)) lines.push(`GRANT SELECT, INSERT ON TABLE ${name} TO ${r};  -- append-only`);
      else lines.push(`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE ${name} TO ${r};`);
    }
    if (rows.some((x) => x.schema === "graphile_worker")) {
      // The job queue (graphile-worker) runs as the app: it takes, updates and removes its own jobs.
      lines.push(
        `GRANT USAGE ON SCHEMA graphile_worker TO ${r};`,
        `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA graphile_worker TO ${r};`,
        `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA graphile_worker TO ${r};`,
        `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA graphile_worker TO ${r};`,
      );
    }
    lines.push("COMMIT;", "");
    return lines.join("\n");
  } finally {
    await client.end().catch(() => {});
  }
}
