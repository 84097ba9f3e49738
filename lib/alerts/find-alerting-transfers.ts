// Pending transfers that have crossed an alert threshold of their store (quiet hours applied): what the
// banner counts and what the worker claims alerts for. Candidates are read oldest first from the
// (status, received_at) index, capped; the thresholds and opening hours are applied here.
import { DEFAULT_ALERT_SETTINGS, type StoreAlertSettings } from "@/lib/alerts/alert-settings";
import { alertDueAt, arrivedAfterHours } from "@/lib/alerts/opening-hours";
import { getAllStoreAlertSettings } from "@/lib/stores/store-npis";
import { selectWaitingTransfers } from "@/lib/alerts/sql";

export type AlertingTransfer = {
  transferId: string;
  receivedAt: Date;
  ageMinutes: number;
  arrivedAfterHours: boolean;
  /** The thresholds whose alert is due now, ascending, with when each became due. */
  due: { thresholdMinutes: number; dueAt: Date }[];
};

export type FindAlertingTransfersOptions = {
  now?: Date;
  /** How many candidates to read at most (oldest first). */
  limit?: number;
  /** Leave out transfers whose highest threshold already has an alert row (the worker's scan). */
  withoutFinalAlertOnly?: boolean;
};

/**
 * Each store's settings by NPI; a transfer for an NPI without a store row gets the defaults. From the store
 * directory's cache (lib/stores/store-npis.ts): every queue page and alerts poll reads them.
 */
export function loadStoreAlertSettings(): Promise<ReadonlyMap<string, StoreAlertSettings>> {
  return getAllStoreAlertSettings();
}

export async function findAlertingTransfers(
  opts: FindAlertingTransfersOptions = {},
): Promise<{ transfers: AlertingTransfer[]; capped: boolean }> {
  const now = opts.now ?? new Date();
  const limit = opts.limit ?? 1000;
  const settings = await loadStoreAlertSettings();
  const lowest = Math.min(...[DEFAULT_ALERT_SETTINGS, ...settings.values()].map((s) => s.alertThresholdsMinutes[0]!));
  const cutoff = new Date(now.getTime() - lowest * 60_000);
  const rows = await selectWaitingTransfers({
    cutoff,
    limit: limit + 1,
    withoutFinalAlertOnly: opts.withoutFinalAlertOnly ?? false,
  }).execute();
  const capped = rows.length > limit;
  const transfers: AlertingTransfer[] = [];
  for (const row of rows.slice(0, limit)) {
    const store = settings.get(row.receiving_npi) ?? DEFAULT_ALERT_SETTINGS;
    const due = store.alertThresholdsMinutes
      .map((thresholdMinutes) => ({
        thresholdMinutes,
        dueAt: alertDueAt(row.received_at, thresholdMinutes, store.openingHours, store.timeZone),
      }))
      .filter((d) => d.dueAt.getTime() <= now.getTime());
    if (due.length === 0) continue;
    transfers.push({
      transferId: row.id,
      receivedAt: row.received_at,
      ageMinutes: Math.floor((now.getTime() - row.received_at.getTime()) / 60_000),
      arrivedAfterHours: arrivedAfterHours(row.received_at, store.openingHours, store.timeZone),
      due,
    });
  }
  return { transfers, capped };
}
