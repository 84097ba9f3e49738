// Fixed-window rate limits kept in PostgreSQL, so every instance of the service counts against the same
// budget. A process takes its share of a window's budget in small leases (one statement: insert the bucket
// or bump it by the lease, restarting the count in a new window) and spends them locally, so a busy
// credential costs one database write per lease instead of one per request, and concurrent requests do
// not queue on the bucket's row lock. Small limits lease one at a time and stay exact; larger ones may
// leave at most a lease's worth unused per process at a window's end.
import { poolQuery } from "@/lib/db/pool-query";
import { takeLeaseStatement } from "@/lib/rate-limit/sql";

export type RateLimitResult = { allowed: boolean; limit: number; retryAfterSeconds: number };

type Lease = { windowEndsAt: number; remaining: number; exhausted: boolean };

const leases = new Map<string, Lease>();
const taking = new Map<string, Promise<void>>();

/** Up to 1/60 of the limit (20 of 1,200 a minute), at most 20: 1 (exact) for limits under 120. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(20, Math.floor(limit / 60)));
}

async function takeLease(key: string, limit: number, windowSeconds: number): Promise<void> {
  const size = leaseSize(limit);
  // On the pool, prepared (lib/db/pool-query.ts): it runs for every lease of every busy credential.
  const rows = await poolQuery(takeLeaseStatement({ key, windowSeconds, size }), { prepared: true });
  const row = rows[0]!;
  const granted = Math.max(0, Math.min(size, limit - (row.count - size)));
  const windowEndsAt = row.window_start.getTime() + windowSeconds * 1000;
  const current = leases.get(key);
  const remaining = (current && current.windowEndsAt === windowEndsAt ? current.remaining : 0) + granted;
  leases.set(key, { windowEndsAt, remaining, exhausted: granted < size });
}

export async function consumeRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  // A lease just taken is spent even if this host's clock already says its window is over: the database's
  // clock decides the window, and waiting for the two to agree would mean asking again in a loop.
  let justTaken = false;
  for (;;) {
    const lease = leases.get(key);
    const now = Date.now();
    if (lease && (justTaken || now < lease.windowEndsAt)) {
      const retryAfterSeconds = Math.max(1, Math.ceil((lease.windowEndsAt - now) / 1000));
      if (lease.remaining > 0) {
        lease.remaining -= 1;
        return { allowed: true, limit, retryAfterSeconds };
      }
      if (lease.exhausted) return { allowed: false, limit, retryAfterSeconds };
    }
    // One lease request per key at a time; the others wait for it and then spend from it.
    let pending = taking.get(key);
    if (!pending) {
      pending = takeLease(key, limit, windowSeconds).finally(() => taking.delete(key));
      taking.set(key, pending);
    }
    await pending;
    justTaken = true;
  }
}
