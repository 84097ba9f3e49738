// The one Prisma client of the process, over the pg driver adapter (no native engine needed).
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/env";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; prismaPool?: pg.Pool };
let queryEvents = false;

/** For tools that inspect the SQL sent (the benchmark's EXPLAIN): call before the first db(). */
export function enableQueryEvents(): void {
  queryEvents = true;
}

function createClient(): PrismaClient {
  const url = env().DATABASE_URL;
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set: start the service with `npm run dev` / `npm start` (they start the embedded database) or set DATABASE_URL",
    );
  }
  // Our own pool (ended with the client: disposeExternalPool) so that /metrics can read its counts.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  globalForPrisma.prismaPool = pool;
  return new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    ...(queryEvents ? { log: [{ emit: "event" as const, level: "query" as const }] } : {}),
  });
}

/** Created on first use so that importing a module never needs a database (e.g. during `next build`). */
export function db(): PrismaClient {
  // Kept on globalThis so Next's dev reloads do not open a new pool each time.
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

/** The pg pool under the Prisma client, for the few hot statements lib/db/pool-query.ts names. */
export function dbPool(): pg.Pool {
  db();
  return globalForPrisma.prismaPool!;
}

/** The pool's connections (all, idle) and the queries waiting for one; null before the first db(). */
export function dbPoolStats(): { total: number; idle: number; waiting: number } | null {
  const pool = globalForPrisma.prismaPool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

/** Closes the pool, for scripts that are done with the database (the next db() call opens a new one). */
export async function disconnectDb(): Promise<void> {
  const client = globalForPrisma.prisma;
  globalForPrisma.prisma = undefined;
  globalForPrisma.prismaPool = undefined;
  await client?.$disconnect();
}
