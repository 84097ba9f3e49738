// The gauges that only PostgreSQL knows, the same for every instance: read by lib/ops/metrics.ts at most
// once per 15 s. The statements: lib/ops/sql.ts.
import { sqlDb } from "@/lib/db/kysely";
import {
  selectCallbacksByStatus,
  selectFailingPartners,
  selectJobQueueLag,
  selectPendingByAge,
  selectSignInTroubles,
} from "@/lib/ops/sql";
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
  const [pending, callbacks, partners, jobs, signIns, partnerAnswers] = await Promise.all([
    selectPendingByAge().execute(),
    selectCallbacksByStatus().execute(),
    selectFailingPartners().execute(),
    selectJobQueueLag().execute(sqlDb()),
    selectSignInTroubles().execute(),
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
    jobQueueLagSeconds: Math.max(0, jobs.rows[0]?.lag ?? 0),
    signInFailures15m: signIns[0]?.failures ?? 0,
    lockouts15m: signIns[0]?.lockouts ?? 0,
    partnerAnswers,
  };
}
