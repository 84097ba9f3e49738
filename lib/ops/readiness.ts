// /readyz: may a load balancer send this instance traffic? Yes only when the database answers, the
// migrations applied to it are exactly the code's (prisma/migrations), and this process's callback worker,
// when it runs one, has shown a heartbeat in the last 30 s. During shutdown: no, at once, without asking
// the database. Each check is named in the answer; none reveals versions, secrets or patient data.
import { readdirSync } from "node:fs";
import path from "node:path";
import { sqlDb } from "@/lib/db/kysely";
import { selectAppliedMigrations } from "@/lib/ops/sql";
import { isShuttingDown, workerHeartbeatAgeMs } from "@/lib/ops/lifecycle";

export const WORKER_HEARTBEAT_MAX_AGE_MS = 30_000;
/** A database that does not answer within this is as good as down for a probe. */
const DATABASE_TIMEOUT_MS = 2_000;

export type ReadinessCheck = { name: "shutdown" | "database" | "migrations" | "worker"; ok: boolean; detail?: string };
export type Readiness = { ready: boolean; checks: ReadinessCheck[] };

let committed: string[] | null = null;

/** The migrations this code ships, by folder name (read once: they cannot change under a running build). */
function committedMigrations(): string[] {
  // process.cwd(): the launcher runs from the project root, and import.meta.url means nothing inside Next's bundle.
  committed ??= readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return committed;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Compares applied migrations with the code's: names only, which carry no secrets. */
export function compareMigrations(applied: readonly string[], code: readonly string[]): ReadinessCheck {
  const have = new Set(applied);
  const want = new Set(code);
  const missing = code.filter((m) => !have.has(m));
  const unknown = applied.filter((m) => !want.has(m));
  if (missing.length === 0 && unknown.length === 0) return { name: "migrations", ok: true };
  const parts = [];
  if (missing.length > 0) parts.push(`${missing.length} not applied (first: ${missing[0]}); run npm run db:deploy`);
  if (unknown.length > 0)
    parts.push(
      `${unknown.length} applied that this code does not know (first: ${unknown[0]}): the database is ahead of this release`,
    );
  return { name: "migrations", ok: false, detail: parts.join("; ") };
}

export async function checkReadiness(): Promise<Readiness> {
  if (isShuttingDown()) {
    return { ready: false, checks: [{ name: "shutdown", ok: false, detail: "this instance is shutting down" }] };
  }
  const checks: ReadinessCheck[] = [];
  let applied: string[] | null = null;
  try {
    const rows = await withTimeout(selectAppliedMigrations().execute(sqlDb()), DATABASE_TIMEOUT_MS);
    applied = rows.rows.map((r) => r.migration_name);
    checks.push({ name: "database", ok: true });
  } catch (err) {
    // The message only: a connection error names host and port at most, never the password.
    const reason =
      err instanceof Error && /no answer within/.test(err.message) ? err.message : "the database did not answer";
    checks.push({ name: "database", ok: false, detail: reason });
  }
  checks.push(
    applied
      ? compareMigrations(applied, committedMigrations())
      : { name: "migrations", ok: false, detail: "unknown: the database did not answer" },
  );
  const age = workerHeartbeatAgeMs();
  if (age !== null) {
    checks.push(
      age <= WORKER_HEARTBEAT_MAX_AGE_MS
        ? { name: "worker", ok: true }
        : {
            name: "worker",
            ok: false,
            detail: `last heartbeat ${Math.round(age / 1000)} s ago (limit ${WORKER_HEARTBEAT_MAX_AGE_MS / 1000} s)`,
          },
    );
  }
  return { ready: checks.every((c) => c.ok), checks };
}
