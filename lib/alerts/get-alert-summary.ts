// What the banner shows: how many pending transfers are past an alert threshold, and the oldest of them.
// Read-only and independent of deciding: a failure here never touches a decision.
import type { AlertSummary } from "@/lib/alerts/alert-summary";
import { findAlertingTransfers } from "@/lib/alerts/find-alerting-transfers";

export type GetAlertSummaryOptions = { now?: Date };

export async function getAlertSummary(opts: GetAlertSummaryOptions = {}): Promise<AlertSummary> {
  const { transfers, capped } = await findAlertingTransfers({ now: opts.now, limit: 1000 });
  const oldest = transfers[0];
  return {
    count: transfers.length,
    capped,
    oldest: oldest
      ? {
          referenceID: oldest.transferId,
          receivedAt: oldest.receivedAt.toISOString(),
          ageMinutes: oldest.ageMinutes,
          thresholdMinutes: oldest.due[oldest.due.length - 1]!.thresholdMinutes,
          arrivedAfterHours: oldest.arrivedAfterHours,
        }
      : null,
  };
}
