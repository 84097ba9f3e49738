// An admin sets a store's alert thresholds, opening hours and time zone. Validated with the one schema
// (400 naming the field), audited with the old and new values in the same transaction as the change.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import {
  parseStoreAlertSettings,
  StoreAlertSettingsSchema,
  type StoreAlertSettings,
} from "@/lib/alerts/alert-settings";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { Prisma } from "@/generated/prisma/client";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockStoreAlertSettings } from "@/lib/alerts/sql";

export type SetStoreAlertSettingsOptions = { storeId: string; change: unknown; actor: Actor };

export async function setStoreAlertSettings(
  opts: SetStoreAlertSettingsOptions,
): Promise<StoreAlertSettings & { storeId: string }> {
  const parsed = StoreAlertSettingsSchema.safeParse(opts.change);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "),
    );
  }
  const after = parsed.data;
  const zoneChangedAt = await db().$transaction(async (tx) => {
    const [row] = await inPrismaTx(tx, lockStoreAlertSettings(opts.storeId));
    if (!row) throw new DomainError("not_found", `no store ${opts.storeId}`);
    const before = parseStoreAlertSettings({
      alertThresholdsMinutes: row.alert_thresholds_minutes,
      openingHours: row.opening_hours,
      timeZone: row.time_zone,
    });
    if (JSON.stringify(before) === JSON.stringify(after)) return null;
    await tx.store.update({
      where: { id: opts.storeId },
      data: {
        alertThresholdsMinutes: after.alertThresholdsMinutes,
        openingHours: after.openingHours === null ? Prisma.DbNull : (after.openingHours as Prisma.InputJsonValue),
        timeZone: after.timeZone,
      },
    });
    await recordAuditEvent(
      {
        actor: opts.actor,
        action: "store.alerts_changed",
        details: {
          storeId: opts.storeId,
          npi: row.npi,
          from: before as unknown as Prisma.InputJsonValue,
          to: after as unknown as Prisma.InputJsonValue,
        },
      },
      tx,
    );
    return before.timeZone === after.timeZone ? null : row.npi;
  });
  // The settings are cached with the store directory: this process reads the new ones at once.
  forgetStoreDirectory();
  // The review checks count the store's calendar days: its pending transfers' stored checks follow the zone.
  if (zoneChangedAt) await classifyStoredTransfers({ receivingNpi: zoneChangedAt });
  return { storeId: opts.storeId, ...after };
}
