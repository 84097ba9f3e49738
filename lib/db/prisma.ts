// The one Prisma client of the process, over the pg driver adapter (no native engine needed).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/env";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };
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
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: url, max: 10 }),
    ...(queryEvents ? { log: [{ emit: "event" as const, level: "query" as const }] } : {}),
  });
}

/** Created on first use so that importing a module never needs a database (e.g. during `next build`). */
export function db(): PrismaClient {
  // Kept on globalThis so Next's dev reloads do not open a new pool each time.
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

/** Closes the pool, for scripts that are done with the database (the next db() call opens a new one). */
export async function disconnectDb(): Promise<void> {
  const client = globalForPrisma.prisma;
  globalForPrisma.prisma = undefined;
  await client?.$disconnect();
}
