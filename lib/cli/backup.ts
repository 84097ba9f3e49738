// `npm run cli -- backup [--out FILE]` and `npm run cli -- restore FILE [--yes]` (lib/ops/backup.ts does the work).
import { readdirSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { BackupError, createBackup, createPgDump, defaultBackupPath, MAIN_TABLES, restoreBackup } from "@/lib/ops/backup";

type Values = { out?: string; yes?: boolean; "pg-dump"?: boolean };
type Result = { json: unknown; human: string };

function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new DomainError("invalid_input", "no database: DATABASE_URL is not set");
  return url;
}

function codeMigrations(): string[] {
  return readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

const rethrow = (err: unknown): never => {
  if (err instanceof BackupError) throw new DomainError(/is not empty/.test(err.message) ? "conflict" : "invalid_input", err.message);
  throw err;
};

export async function runBackupCommand(args: string[], values: Values): Promise<Result> {
  if (args[0] === "backup") {
    if (args.length > 1) throw new DomainError("invalid_input", "usage: backup [--out FILE] [--pg-dump]");
    if (values["pg-dump"]) {
      const dumped = await createPgDump(databaseUrl(), values.out ?? defaultBackupPath().replace(/\.rxbackup\.gz$/, ".dump")).catch(rethrow);
      return { json: { ...dumped, format: "pg_dump custom" }, human: `pg_dump written: ${dumped.file}\nsize: ${dumped.bytes} bytes (restore with pg_restore)` };
    }
    const summary = await createBackup(databaseUrl(), values.out ?? defaultBackupPath()).catch(rethrow);
    const main = MAIN_TABLES.map((t) => `  ${t.padEnd(20)} ${summary.rows[`public.${t}`] ?? 0}`);
    return {
      json: summary,
      human: [`backup written: ${summary.file}`, `size: ${summary.bytes} bytes (${summary.tables} tables)`, "rows:", ...main].join("\n"),
    };
  }
  const file = args[1];
  if (!file || args.length > 2) throw new DomainError("invalid_input", "usage: restore FILE [--yes]");
  const summary = await restoreBackup(databaseUrl(), file, { overwrite: values.yes === true, codeMigrations: codeMigrations() }).catch(rethrow);
  const main = MAIN_TABLES.map((t) => `  ${t.padEnd(20)} ${summary.rows[`public.${t}`] ?? 0}`);
  return {
    json: summary,
    human: [`restored ${summary.file}${summary.replaced ? " (replacing the data that was there)" : ""}`, "rows:", ...main, "check it: npm run cli -- audit verify"].join("\n"),
  };
}
