// `backup [--out FILE] [--pg-dump]` and `restore FILE [--yes]` (lib/ops/backup.ts and restore-backup.ts do the work).
import { readdirSync } from "node:fs";
import path from "node:path";
import { backupProgressLine, everyFewSeconds, restoreProgressLine } from "@/lib/cli/backup-progress";
import { switchFlag, textFlag, type CliCommand } from "@/lib/cli/command-table";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { createBackup, createPgDump, defaultBackupPath, MAIN_TABLES } from "@/lib/ops/backup";
import { BackupError } from "@/lib/ops/backup-file";
import { restoreBackup } from "@/lib/ops/restore-backup";

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
  if (err instanceof BackupError)
    throw new DomainError(/is not empty/.test(err.message) ? "conflict" : "invalid_input", err.message);
  throw err;
};

const toStderr = (line: string) => void process.stderr.write(line);

const rowLines = (rows: Record<string, number>) =>
  MAIN_TABLES.map((t) => `  ${t.padEnd(20)} ${rows[`public.${t}`] ?? 0}`);

export const BACKUP_COMMANDS: readonly CliCommand[] = [
  {
    noun: "backup",
    flags: [{ name: "out", value: "<file>" }, { name: "pg-dump" }],
    summary: ["a consistent snapshot of the whole database (default backups/rx-transfer-<time>.rxbackup.gz)"],
    async run({ values }) {
      const out = textFlag(values, "out");
      if (switchFlag(values, "pg-dump")) {
        const dumped = await createPgDump(
          databaseUrl(),
          out ?? defaultBackupPath().replace(/\.rxbackup\.gz$/, ".dump"),
        ).catch(rethrow);
        return {
          json: { ...dumped, format: "pg_dump custom" },
          human: `pg_dump written: ${dumped.file}\nsize: ${dumped.bytes} bytes (restore with pg_restore)`,
        };
      }
      const summary = await createBackup(databaseUrl(), out ?? defaultBackupPath(), {
        onProgress: everyFewSeconds(toStderr, backupProgressLine),
      }).catch(rethrow);
      return {
        json: summary,
        human: [
          `backup written: ${summary.file}`,
          `size: ${summary.bytes} bytes (${summary.tables} tables)`,
          "rows:",
          ...rowLines(summary.rows),
        ].join("\n"),
      };
    },
  },
  {
    noun: "restore",
    args: [{ name: "file" }],
    flags: [{ name: "yes" }],
    summary: ["restore a backup into this database (--yes to replace data already there)"],
    migrate: false,
    async run({ args: [file = ""], values }) {
      const summary = await restoreBackup(databaseUrl(), file, {
        overwrite: switchFlag(values, "yes"),
        codeMigrations: codeMigrations(),
        onProgress: everyFewSeconds(toStderr, restoreProgressLine),
      }).catch(rethrow);
      return {
        json: summary,
        human: [
          `restored ${summary.file}${summary.replaced ? " (replacing the data that was there)" : ""}`,
          "rows:",
          ...rowLines(summary.rows),
          "check it: npm run cli -- audit verify",
        ].join("\n"),
      };
    },
  },
];
