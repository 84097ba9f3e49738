// The alert for a transfer CONFIRMED automatically that no pharmacist has verified within its store's limit:
// once per transfer (alerted_at is the dedupe, claimed by an UPDATE, so concurrent scans raise it once), as an
// audit event and a warning in the log; the "to verify" list marks it past the limit. The limit counts
// wall-clock hours: opening hours are not applied to it yet.
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { log } from "@/lib/log";

export async function claimOverdueVerifications(opts: { now?: Date } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ transfer_id: string; store_id: string; hours: number }[]>`
      UPDATE immediate_confirmations c SET alerted_at = ${now}
        FROM immediate_confirm_policies p
       WHERE p.store_id = c.store_id AND c.verified_at IS NULL AND c.alerted_at IS NULL
         AND c.confirmed_at < ${now}::timestamptz - make_interval(hours => p.verify_within_hours)
      RETURNING c.transfer_id, c.store_id, p.verify_within_hours AS hours`;
    for (const r of rows) {
      await recordAuditEvent(
        {
          userId: null,
          actor: "system",
          action: "transfer.immediate_verify_overdue",
          transferId: r.transfer_id,
          clientAddress: null,
          details: { transferId: r.transfer_id, storeId: r.store_id, verifyWithinHours: r.hours },
        },
        tx,
      );
      log("warn", "automatically confirmed transfer not verified in time", {
        transferId: r.transfer_id,
        hours: r.hours,
      });
    }
    return rows.map((r) => r.transfer_id);
  });
}
