// The partners the admin overview names: those whose last hour of /v1 answers fails above the warning line
// (the sender cuts a partner off above 50 %), and those with callbacks the sender refused (RX_CALLBACK_ERROR).
import { db } from "@/lib/db/prisma";
import { readPartnerAnswerRates } from "@/lib/partners/partner-answer-counts";
import type { PartnerAnswerRate } from "@/lib/partners/failure-rate";
import { countRefusedCallbacksByPartner } from "@/lib/partners/sql";

export type PartnerAtRisk = {
  partnerId: string;
  name: string;
  /** Set when the last hour's failure rate is above the warning line. */
  rate: PartnerAnswerRate | null;
  /** Callbacks in status REFUSED. */
  refusedCallbacks: number;
};

export async function listPartnersAtRisk(): Promise<PartnerAtRisk[]> {
  const [rates, refused] = await Promise.all([readPartnerAnswerRates(), countRefusedCallbacksByPartner().execute()]);
  const risky = new Map<string, { rate: PartnerAnswerRate | null; refusedCallbacks: number }>();
  for (const [id, rate] of rates) if (rate.level !== "ok") risky.set(id, { rate, refusedCallbacks: 0 });
  for (const r of refused)
    risky.set(r.partner_id, { rate: risky.get(r.partner_id)?.rate ?? null, refusedCallbacks: r.n });
  if (risky.size === 0) return [];
  const partners = await db().partner.findMany({
    where: { id: { in: [...risky.keys()] } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  return partners.map((p) => ({ partnerId: p.id, name: p.name, ...risky.get(p.id)! }));
}
