// The alert for a transfer CONFIRMED automatically that no pharmacist has verified within its store's limit
// (verify_within_hours, counted during the store's opening hours like the pending alerts' thresholds): once per
// transfer, alerted_at claimed by an UPDATE (so concurrent scans raise it once), with its audit event and the
// email job queued in the same transaction. The email goes out from the worker (send-verify-overdue-email.ts),
// like the pending alerts. The "to verify" list marks the transfer past its limit. The same scan drops the
// hourly cap's counts that no bound reads any more (queries/cap-count.ts).
import { parseStoreAlertSettings } from "@/lib/alerts/alert-settings";
import { addOpenMinutes } from "@/lib/alerts/opening-hours";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { execInPrismaTx, inPrismaTx } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import {
  markOverdueAlerted,
  queueVerifyOverdueEmail,
  selectOverdueCandidates,
} from "@/lib/immediate-confirm/queries/verification";
import { deleteCountsBefore } from "@/lib/immediate-confirm/queries/cap-count";
import { log } from "@/lib/log";

export const SEND_VERIFY_OVERDUE_TASK = "send-verify-overdue-email";

export type ClaimOverdueVerificationsOptions = { now?: Date; limit?: number };

/** When a confirmation's limit runs out: its store's hours of opening time after it was confirmed. */
export function verifyDueAt(c: { confirmedAt: Date; hours: number; openingHours: unknown; timeZone: string }): Date {
  const store = parseStoreAlertSettings({
    alertThresholdsMinutes: null,
    openingHours: c.openingHours,
    timeZone: c.timeZone,
  });
  return addOpenMinutes(c.confirmedAt, c.hours * 60, store.openingHours, store.timeZone);
}

/** The transfers this call raised the alert for. */
export async function claimOverdueVerifications(opts: ClaimOverdueVerificationsOptions = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  // The cap's counts older than two hours, by the wall clock (never a later `now`: the bound reads the last hour's).
  await deleteCountsBefore(new Date(Date.now() - 2 * 3_600_000)).execute();
  const candidates = await selectOverdueCandidates(now, opts.limit ?? 500).execute();
  const due = candidates.filter(
    (c) =>
      verifyDueAt({
        confirmedAt: c.confirmed_at,
        hours: c.hours,
        openingHours: c.opening_hours,
        timeZone: c.time_zone,
      }).getTime() <= now.getTime(),
  );
  if (due.length === 0) return [];
  return db().$transaction(async (tx) => {
    const claimed = await inPrismaTx(
      tx,
      markOverdueAlerted(
        due.map((c) => c.transfer_id),
        now,
      ),
    );
    const byId = new Map(due.map((c) => [c.transfer_id, c]));
    for (const { transfer_id: id } of claimed) {
      const c = byId.get(id)!;
      await recordAuditEvent(
        {
          actor: SYSTEM_ACTOR,
          action: "transfer.immediate_verify_overdue",
          transferId: id,
          details: { transferId: id, storeId: c.store_id, verifyWithinHours: c.hours },
        },
        tx,
      );
      await execInPrismaTx(tx, queueVerifyOverdueEmail(SEND_VERIFY_OVERDUE_TASK, id));
      log("warn", "automatically confirmed transfer not verified in time", { transferId: id, hours: c.hours });
    }
    return claimed.map((r) => r.transfer_id);
  });
}
