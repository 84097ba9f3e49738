// Fixed-window rate limits kept in PostgreSQL, so every instance of the service counts against the same
// budget. One statement per check: insert the bucket or bump it, restarting the count in a new window.
import { db } from "@/lib/db/prisma";

export type RateLimitResult = { allowed: boolean; count: number; limit: number; retryAfterSeconds: number };

export async function consumeRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const rows = await db().$queryRaw<{ count: number; window_start: Date }[]>`
    INSERT INTO rate_limit_buckets AS b (key, window_start, count)
    VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}) * ${windowSeconds}), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN b.window_start = EXCLUDED.window_start THEN b.count + 1 ELSE 1 END,
      window_start = EXCLUDED.window_start
    RETURNING count, window_start`;
  const row = rows[0]!;
  const windowEnds = row.window_start.getTime() + windowSeconds * 1000;
  return {
    allowed: row.count <= limit,
    count: row.count,
    limit,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - Date.now()) / 1000)),
  };
}
