// The worker's scan: for every pending transfer with a threshold newly due, insert its alert rows and queue
// the email in the same transaction. The rows' primary key (transfer, threshold) is the dedupe: however
// many workers scan at once, one insert wins and only the winner's transaction queues an email.
import { findAlertingTransfers } from "@/lib/alerts/find-alerting-transfers";
import { db } from "@/lib/db/prisma";
import { execInPrismaTx, inPrismaTx } from "@/lib/db/kysely";
import { insertAlertClaims, queueAlertEmail } from "@/lib/alerts/sql";

export const SEND_ALERT_TASK = "send-alert-email";

export const alertJobKey = (transferId: string, thresholdMinutes: number) => `alert:${transferId}:${thresholdMinutes}`;

export type ClaimDueAlertsOptions = { now?: Date; limit?: number };

/** Returns how many alert emails this call queued. */
export async function claimDueAlerts(opts: ClaimDueAlertsOptions = {}): Promise<number> {
  const { transfers } = await findAlertingTransfers({
    now: opts.now,
    limit: opts.limit ?? 500,
    withoutFinalAlertOnly: true,
  });
  const rows = transfers.flatMap((t) =>
    // Crossed together (e.g. at opening time): one email, for the highest; the lower ones are recorded as SKIPPED.
    t.due.map((d, i) => ({
      transferId: t.transferId,
      thresholdMinutes: d.thresholdMinutes,
      dueAt: d.dueAt,
      status: i === t.due.length - 1 ? "PENDING" : "SKIPPED",
    })),
  );
  if (rows.length === 0) return 0;
  // One order for every worker, so that two scans inserting the same keys wait on each other, not deadlock.
  rows.sort((a, b) =>
    a.transferId < b.transferId ? -1 : a.transferId > b.transferId ? 1 : a.thresholdMinutes - b.thresholdMinutes,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertAndQueue(rows);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error && /\b40P01\b|deadlock detected/.test(err.message))) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

async function insertAndQueue(
  rows: { transferId: string; thresholdMinutes: number; dueAt: Date; status: string }[],
): Promise<number> {
  return db().$transaction(async (tx) => {
    const inserted = await inPrismaTx(tx, insertAlertClaims(rows));
    const toSend = inserted.filter((r) => r.email_status === "PENDING");
    for (const r of toSend) {
      await execInPrismaTx(
        tx,
        queueAlertEmail(
          SEND_ALERT_TASK,
          r.transfer_id,
          r.threshold_minutes,
          alertJobKey(r.transfer_id, r.threshold_minutes),
        ),
      );
    }
    return toSend.length;
  });
}
