// What the policy would have done over the store's last 7 days, before anyone turns it on: the same request
// rules intake applies (qualify-transfer.ts), on the transfers as they were received (judged as of their
// arrival), with the reasons the others would not have qualified, most frequent first. The database signals
// (duplicate therapy, an earlier rejection, the hourly cap) are not replayed; the page says so.
import { db } from "@/lib/db/prisma";
import { selectRecentRequests } from "@/lib/immediate-confirm/queries/simulation";
import { whyNotImmediate } from "@/lib/immediate-confirm/qualify-transfer";
import { inZone, parseStoreRules } from "@/lib/stores/store-rules";
import { reviewCheckOptions } from "@/lib/transfers/review";
import { TransferRequestSchema } from "@/lib/interface";

const SAMPLE_LIMIT = 5000;

export type PolicySimulation = { total: number; qualified: number; reasons: { reason: string; count: number }[] };

export async function simulatePolicy(opts: {
  storeId: string;
  allowListedAllergies: boolean;
}): Promise<PolicySimulation> {
  const store = await db().store.findUnique({ where: { id: opts.storeId } });
  if (!store) return { total: 0, qualified: 0, reasons: [] };
  const rules = inZone(parseStoreRules(store), store.timeZone);
  const rows = await selectRecentRequests(store.npi, SAMPLE_LIMIT).execute();
  const counts = new Map<string, number>();
  let qualified = 0;
  for (const row of rows) {
    const parsed = TransferRequestSchema.safeParse(row.request);
    const reason = parsed.success
      ? whyNotImmediate({
          request: parsed.data,
          rules,
          allowListedAllergies: opts.allowListedAllergies,
          now: row.received_at,
          checkOptions: reviewCheckOptions(),
        })
      : "the stored request is not readable";
    if (!reason) {
      qualified++;
      continue;
    }
    // The rule's name, without the transfer's own details, so that like reasons count together.
    const key = reason
      .split(":")[0]!
      .replace(/\(.*\)/, "")
      .trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const reasons = [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
  return { total: rows.length, qualified, reasons };
}
