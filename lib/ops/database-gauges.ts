// The gauges that only PostgreSQL knows, the same for every instance: read by lib/ops/metrics.ts at most
// once per 15 s. Each query reads an index (transfers by status and received_at, callbacks by status,
// audit events by action and time) or a small table (partners, the runnable jobs).
import { db } from "@/lib/db/prisma";
import { readPartnerAnswerRates } from "@/lib/partners/partner-answer-counts";
import type { PartnerAnswerRate } from "@/lib/partners/failure-rate";

export type DatabaseGauges = {
  pendingByAge: Record<"0-1h" | "1-2h" | "2-3h" | "3-4h" | "over-4h", number>;
  oldestPendingAgeSeconds: number;
  callbacksByStatus: Record<"PENDING" | "FAILED" | "GONE" | "REFUSED", number>;
  failingPartners: { partnerId: string; failingSeconds: number }[];
  jobQueueLagSeconds: number;
  signInFailures15m: number;
  lockouts15m: number;
  /** Each partner's /v1 answers of the last hour as the sender counts them (only partners that had any). */
  partnerAnswers: Map<string, PartnerAnswerRate>;
};

export async function readDatabaseGauges(): Promise<DatabaseGauges> {
  const client = db();
  const [pending, callbacks, partners, jobs, signIns, partnerAnswers] = await Promise.all([
    client.$queryRaw<{ h0: number; h1: number; h2: number; h3: number; h4: number; oldest: number }[]>`
      SELECT count(*) FILTER (WHERE received_at > now() - interval '1 hour')::int AS h0,
             count(*) FILTER (WHERE received_at <= now() - interval '1 hour' AND received_at > now() - interval '2 hours')::int AS h1,
             count(*) FILTER (WHERE received_at <= now() - interval '2 hours' AND received_at > now() - interval '3 hours')::int AS h2,
             count(*) FILTER (WHERE received_at <= now() - interval '3 hours' AND received_at > now() - interval '4 hours')::int AS h3,
             count(*) FILTER (WHERE received_at <= now() - interval '4 hours')::int AS h4,
             coalesce(extract(epoch FROM now() - min(received_at)), 0)::float8 AS oldest
        FROM transfers WHERE status = 'RECEIVED'`,
    client.$queryRaw<{ status: string; n: number }[]>`
      SELECT status::text AS status, count(*)::int AS n FROM callbacks
       WHERE status IN ('PENDING', 'FAILED', 'GONE', 'REFUSED') GROUP BY status`,
    client.$queryRaw<{ id: string; seconds: number }[]>`
      SELECT id, extract(epoch FROM now() - callback_failing_since)::float8 AS seconds
        FROM partners WHERE callback_failing_since IS NOT NULL`,
    client.$queryRaw<{ lag: number }[]>`
      SELECT coalesce(extract(epoch FROM now() - min(run_at)), 0)::float8 AS lag
        FROM graphile_worker.jobs WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts`,
    client.$queryRaw<{ failures: number; lockouts: number }[]>`
      SELECT count(*) FILTER (WHERE action = 'auth.sign_in_failed')::int AS failures,
             count(*) FILTER (WHERE action = 'auth.locked_out')::int AS lockouts
        FROM audit_events
       WHERE action IN ('auth.sign_in_failed', 'auth.locked_out') AND at > now() - interval '15 minutes'`,
    readPartnerAnswerRates(),
  ]);
  const p = pending[0] ?? { h0: 0, h1: 0, h2: 0, h3: 0, h4: 0, oldest: 0 };
  const byStatus = { PENDING: 0, FAILED: 0, GONE: 0, REFUSED: 0 };
  for (const row of callbacks) if (row.status in byStatus) byStatus[row.status as keyof typeof byStatus] = row.n;
  return {
    pendingByAge: { "0-1h": p.h0, "1-2h": p.h1, "2-3h": p.h2, "3-4h": p.h3, "over-4h": p.h4 },
    oldestPendingAgeSeconds: Math.max(0, p.oldest),
    callbacksByStatus: byStatus,
    failingPartners: partners.map((r) => ({ partnerId: r.id, failingSeconds: Math.max(0, r.seconds) })),
    jobQueueLagSeconds: Math.max(0, jobs[0]?.lag ?? 0),
    signInFailures15m: signIns[0]?.failures ?? 0,
    lockouts15m: signIns[0]?.lockouts ?? 0,
    partnerAnswers,
  };
}
