// A store's drug rules: state schedules on top of the federal table, and how long a non-controlled
// prescription stays valid.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";
import { parseStoreRules, StoreRulesSchema, type StoreRules } from "@/lib/stores/store-rules";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockStoreRules } from "@/lib/stores/sql";

export type StoreRulesChange = { extraSchedules?: unknown; rxExpiryMonths?: unknown };
/** Either or both of the rules; what the admin API takes (400 naming the field). */
export const StoreRulesChangeSchema = StoreRulesSchema.partial();
/** storeRef: the store's id or its NPI (10 digits), as the CLI takes it. */
export type SetStoreRulesOptions = { storeRef: string; change: StoreRulesChange; actor: Actor };
export type StoreRulesResult = StoreRules & { storeId: string; npi: string; reclassified: number };

/** A store by its id or by its NPI (10 digits), as the CLI takes it. */
async function findStore(ref: string) {
  const store = /^\d{10}$/.test(ref)
    ? await db().store.findUnique({ where: { npi: ref } })
    : await db().store.findUnique({ where: { id: ref } });
  if (!store) throw new DomainError("not_found", `no store ${ref}`);
  return store;
}

/** The change validated field by field; a bad one is invalid_input naming the field (extraSchedules.1.schedule). */
function validateRulesChange(change: StoreRulesChange): Partial<StoreRules> {
  if (change.extraSchedules === undefined && change.rxExpiryMonths === undefined) {
    throw new DomainError("invalid_input", "give extraSchedules or rxExpiryMonths to change");
  }
  const parsed = StoreRulesChangeSchema.safeParse(change);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  const seen = new Set<string>();
  for (const e of parsed.data.extraSchedules ?? []) {
    if (seen.has(e.substance))
      throw new DomainError(
        "invalid_input",
        `extraSchedules: ${e.substance} is listed twice; give it once, with its state schedule`,
      );
    seen.add(e.substance);
  }
  return parsed.data;
}

/**
 * Sets a store's drug rules (either or both). Audited with the old and new values. Afterwards the store
 * directory cache is dropped and, when the rules changed, the store's pending transfers are classified
 * again so that the queue shows and filters on the new schedules and checks.
 */
export async function setStoreRules({ storeRef, change, actor }: SetStoreRulesOptions): Promise<StoreRulesResult> {
  const wanted = validateRulesChange(change);
  const found = await findStore(storeRef);
  const { before, after } = await db().$transaction(async (tx) => {
    // Locked, so that the audit record's "from" is what this change replaced.
    const [row] = await inPrismaTx(tx, lockStoreRules(found.id));
    if (!row) throw new DomainError("not_found", `no store ${storeRef}`);
    const before = parseStoreRules({ extraSchedules: row.extra_schedules, rxExpiryMonths: row.rx_expiry_months });
    const after: StoreRules = {
      extraSchedules: wanted.extraSchedules ?? before.extraSchedules,
      rxExpiryMonths: wanted.rxExpiryMonths ?? before.rxExpiryMonths,
    };
    if (JSON.stringify(before) === JSON.stringify(after)) return { before, after };
    await tx.store.update({
      where: { id: found.id },
      data: { extraSchedules: after.extraSchedules as Prisma.InputJsonValue, rxExpiryMonths: after.rxExpiryMonths },
    });
    await recordAuditEvent(
      {
        actor,
        action: "store.rules_changed",
        details: {
          storeId: found.id,
          npi: found.npi,
          from: before as unknown as Prisma.InputJsonValue,
          to: after as unknown as Prisma.InputJsonValue,
        },
      },
      tx,
    );
    return { before, after };
  });
  forgetStoreDirectory();
  // Both rules decide what the review checks flag (the schedule, the legal expiry), which the queue filters on.
  const rulesChanged = JSON.stringify(before) !== JSON.stringify(after);
  const reclassified = rulesChanged ? await classifyStoredTransfers({ receivingNpi: found.npi }) : 0;
  return { storeId: found.id, npi: found.npi, ...after, reclassified };
}
