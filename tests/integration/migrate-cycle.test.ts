// The Prisma CLI's whole migrate cycle through the offline schema engine (prisma/engine/), against a
// real PostgreSQL, in a temporary copy of the prisma folder. It re-verifies the engine's protocol
// handling and its workarounds for @prisma/adapter-pg after any upgrade of prisma, adapter-pg or
// @prisma/schema-engine-wasm (see prisma/engine/schema-engine.mjs).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, databaseUrl, dropDatabase, runPrismaCli } from "@/lib/db/migrate";
import { startTestPostgres, type TestPostgres } from "@/tests/support/database";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ENGINE = path.join(ROOT, "prisma", "engine", "schema-engine.mjs");

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A temporary project in `dir`: a copy of prisma/schema.prisma and prisma/migrations, and a prisma.config.mjs. */
async function writeProject(dir: string): Promise<void> {
  await fs.copyFile(path.join(ROOT, "prisma", "schema.prisma"), path.join(dir, "schema.prisma"));
  await fs.cp(path.join(ROOT, "prisma", "migrations"), path.join(dir, "migrations"), { recursive: true });
  // A plain object (no import of prisma/config: this directory has no node_modules).
  const config = {
    schema: path.join(dir, "schema.prisma"),
    migrations: { path: path.join(dir, "migrations") },
  };
  await fs.writeFile(
    path.join(dir, "prisma.config.mjs"),
    `export default { ...${JSON.stringify(config)}, datasource: { url: process.env.DATABASE_URL } };\n`,
  );
}

/** Gives model Store a new column, phone_number: a change the committed migrations do not have. */
async function addStorePhone(schemaFile: string): Promise<void> {
  const schema = await fs.readFile(schemaFile, "utf8");
  const changed = schema.replace(/^model Store \{\n/m, 'model Store {\n  phone     String? @map("phone_number")\n');
  expect(changed).not.toBe(schema);
  await fs.writeFile(schemaFile, changed);
}

const migrationNamesIn = async (dir: string) =>
  (await fs.readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const publicTables = async (url: string) =>
  (await query<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).map(
    (row) => row.tablename,
  );

describe("prisma migrate through the offline schema engine", () => {
  let postgres: TestPostgres;
  let work: string; // the temporary project: prisma.config.mjs, schema.prisma, migrations/
  const suffix = randomBytes(4).toString("hex");
  const mainDb = `rx_cycle_${suffix}`; // what migrate dev/deploy/reset work on
  const bystanderDb = `rx_cycle_empty_${suffix}`; // DATABASE_URL of the diff runs: must stay empty
  let mainUrl: string;
  let bystanderUrl: string;

  const schemaFile = () => path.join(work, "schema.prisma");
  const migrationsDir = () => path.join(work, "migrations");
  const migrationNames = () => migrationNamesIn(migrationsDir());

  const prisma = (args: string[], url = mainUrl, project = work) =>
    runPrismaCli([...args, "--config", path.join(project, "prisma.config.mjs")], {
      DATABASE_URL: url,
      PRISMA_SCHEMA_ENGINE_BINARY: ENGINE,
    });

  const diffMigrationsToSchema = () =>
    prisma(
      ["migrate", "diff", "--from-migrations", migrationsDir(), "--to-schema", schemaFile(), "--exit-code"],
      bystanderUrl,
    );

  const shadowDatabases = async () =>
    query<{ datname: string }>(
      postgres.adminUrl,
      "SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'",
    );

  beforeAll(async () => {
    postgres = await startTestPostgres();
    work = await fs.mkdtemp(path.join(os.tmpdir(), "rx-migrate-cycle-"));
    await writeProject(work);
    mainUrl = databaseUrl(postgres.adminUrl, mainDb); // not created: migrate deploy must create it
    bystanderUrl = await createDatabase(postgres.adminUrl, bystanderDb);
  });

  afterAll(async () => {
    if (postgres) {
      await dropDatabase(postgres.adminUrl, mainDb).catch(() => {});
      await dropDatabase(postgres.adminUrl, bystanderDb).catch(() => {});
      await postgres.stop();
    }
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it("migrate deploy creates the missing database and applies the committed migrations", async () => {
    const committed = await migrationNames();
    expect(committed.length).toBeGreaterThan(0);

    const { code, output } = await prisma(["migrate", "deploy"]);
    expect(code, output).toBe(0);

    const applied = await query<{ migration_name: string }>(
      mainUrl,
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY 1",
    );
    expect(applied.map((row) => row.migration_name)).toEqual(committed);
    expect(await publicTables(mainUrl)).toEqual(expect.arrayContaining(["transfers", "partners", "api_keys"]));
  });

  it("migrate status reports the database up to date", async () => {
    const { code, output } = await prisma(["migrate", "status"]);
    expect(code, output).toBe(0);
    expect(output).toContain("Database schema is up to date");
  });

  it("migrate diff --exit-code exits 0 in sync, in a shadow database that is gone afterwards", async () => {
    const { code, output } = await diffMigrationsToSchema();
    expect(code, output).toBe(0);
    // adapter-pg would replay the migrations on DATABASE_URL's database instead of the shadow one
    expect(await publicTables(bystanderUrl)).toEqual([]);
    // … and leave the shadow database behind
    expect(await shadowDatabases()).toEqual([]);
  });

  it("migrate diff --exit-code exits 2 when the schema drifts from the migrations", async () => {
    await addStorePhone(schemaFile());

    const { code, output } = await diffMigrationsToSchema();
    expect(code, output).toBe(2);
    expect(output).toContain("phone_number");
  });

  it("migrate dev --name writes a migration.sql with the change and applies it", async () => {
    const before = await migrationNames();
    const { code, output } = await prisma(["migrate", "dev", "--name", "x"]);
    expect(code, output).toBe(0);

    const created = (await migrationNames()).filter((name) => !before.includes(name));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatch(/^\d{14}_x$/);
    const sql = await fs.readFile(path.join(migrationsDir(), created[0]!, "migration.sql"), "utf8");
    expect(sql).toMatch(/ALTER TABLE "stores" ADD COLUMN\s+"phone_number" TEXT/);

    const columns = await query(
      mainUrl,
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'stores' AND column_name = 'phone_number'",
    );
    expect(columns).toHaveLength(1);
    expect((await diffMigrationsToSchema()).code).toBe(0);
    expect(await shadowDatabases()).toEqual([]);
  });

  it("applies a migration whose function body holds semicolons ($$ … ; … $$), also in the shadow replay", async () => {
    const last = (await migrationNames()).at(-1)!;
    const name = `${BigInt(last.slice(0, 14)) + 1n}_function`;
    await fs.mkdir(path.join(migrationsDir(), name));
    await fs.writeFile(
      path.join(migrationsDir(), name, "migration.sql"),
      [
        "CREATE FUNCTION cycle_test_double(n integer) RETURNS integer AS $$",
        "DECLARE result integer;",
        "BEGIN",
        "  result := n * 2;",
        "  RETURN result;",
        "END;",
        "$$ LANGUAGE plpgsql;",
        "",
        // A function is not part of the Prisma schema: migrate dev below must not want to drop it.
        "COMMENT ON FUNCTION cycle_test_double(integer) IS 'migrate-cycle test; see prisma/engine';",
        "",
      ].join("\n"),
    );

    const deploy = await prisma(["migrate", "deploy"]);
    expect(deploy.code, deploy.output).toBe(0);
    expect(await query(mainUrl, "SELECT cycle_test_double(21) AS doubled")).toEqual([{ doubled: 42 }]);

    // migrate dev replays every migration, this one included, in a shadow database.
    const dev = await prisma(["migrate", "dev", "--name", "nothing"]);
    expect(dev.code, dev.output).toBe(0);
    expect(dev.output).toContain("Already in sync");
  });

  it("migrate reset --force empties the database and applies every migration again", async () => {
    await query(mainUrl, "INSERT INTO stores (id, npi, name) VALUES ('sto_reset', '1234567893', 'Reset me')");

    const { code, output } = await prisma(["migrate", "reset", "--force"]);
    expect(code, output).toBe(0);

    expect(await query(mainUrl, "SELECT id FROM stores")).toEqual([]);
    expect(await query(mainUrl, "SELECT cycle_test_double(4) AS doubled")).toEqual([{ doubled: 8 }]);
    const applied = await query<{ count: string }>(mainUrl, "SELECT count(*) FROM _prisma_migrations");
    expect(Number(applied[0]!.count)).toBe((await migrationNames()).length);

    const status = await prisma(["migrate", "status"]);
    expect(status.code, status.output).toBe(0);
  });

  it("refuses a ?schema= other than public instead of migrating public", async () => {
    const url = new URL(mainUrl);
    url.searchParams.set("schema", "elsewhere");
    const { code, output } = await prisma(["migrate", "deploy"], url.toString());
    expect(code).not.toBe(0);
    expect(output).toContain('only manages the "public" schema');
  });

  it("reports a migration that fails in the shadow database, and drops that shadow database", async () => {
    const last = (await migrationNames()).at(-1)!;
    const broken = path.join(migrationsDir(), `${BigInt(last.slice(0, 14)) + 1n}_broken`);
    await fs.mkdir(broken);
    await fs.writeFile(path.join(broken, "migration.sql"), "SELEC 1;\n");
    try {
      const { code, output } = await diffMigrationsToSchema();
      expect(code).toBe(1);
      expect(output).toContain('syntax error at or near "SELEC"');
    } finally {
      await fs.rm(broken, { recursive: true, force: true });
    }
    // the engine answers without disposing of a shadow database whose replay failed
    expect(await shadowDatabases()).toEqual([]);
  });

  it("migrate dev --name on a fresh database applies the committed migrations, then creates the new one", async () => {
    // Its own project and database: no _prisma_migrations yet, a schema ahead of the committed migrations.
    // The WASM engine computes the migrations' schema for evaluateDataLoss/createMigration from what
    // devDiagnostic cached, before the committed migrations were applied (see prisma/engine/schema-engine.mjs).
    const project = await fs.mkdtemp(path.join(os.tmpdir(), "rx-migrate-fresh-"));
    const freshDb = `rx_cycle_fresh_${suffix}`;
    try {
      await writeProject(project);
      await addStorePhone(path.join(project, "schema.prisma"));
      const committed = await migrationNamesIn(path.join(project, "migrations"));
      const freshUrl = await createDatabase(postgres.adminUrl, freshDb);
      expect(await publicTables(freshUrl)).toEqual([]);

      const { code, output } = await prisma(["migrate", "dev", "--name", "phone"], freshUrl, project);
      expect(code, output).toBe(0);
      expect(output).not.toContain("shadow DB must be provided");
      expect(output).toContain(committed.at(-1)!);

      const names = await migrationNamesIn(path.join(project, "migrations"));
      const created = names.filter((name) => !committed.includes(name));
      expect(created).toHaveLength(1);
      expect(created[0]).toMatch(/^\d{14}_phone$/);
      const sql = await fs.readFile(path.join(project, "migrations", created[0]!, "migration.sql"), "utf8");
      expect(sql).toMatch(/ALTER TABLE "stores" ADD COLUMN\s+"phone_number" TEXT/);

      const applied = await query<{ migration_name: string }>(
        freshUrl,
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY 1",
      );
      expect(applied.map((row) => row.migration_name)).toEqual(names);
      const columns = await query(
        freshUrl,
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'stores' AND column_name = 'phone_number'",
      );
      expect(columns).toHaveLength(1);
      expect(await shadowDatabases()).toEqual([]);
    } finally {
      await dropDatabase(postgres.adminUrl, freshDb).catch(() => {});
      await fs.rm(project, { recursive: true, force: true });
    }
  });

  it("leaves no shadow database behind", async () => {
    expect(await shadowDatabases()).toEqual([]);
  });
});
