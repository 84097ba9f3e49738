// Changes a store's immediate-confirmation policy: a new version, audited with the old and new values in the
// same transaction. Turning it on needs an owner (an active pharmacist), the store's state and the board rule.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { inPrismaTx } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { forgetImmediatePolicies } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { lockPolicyExclusively, lockStoreRow } from "@/lib/immediate-confirm/queries/policy";
import {
  defaultPolicy,
  PolicyChangeSchema,
  policyOf,
  type ImmediateConfirmPolicy,
  type PolicyChange,
} from "@/lib/immediate-confirm/policy-rules";

export type SetImmediateConfirmPolicyOptions = { storeRef: string; change: unknown; actor: Actor };

function validateChange(change: unknown): PolicyChange {
  const parsed = PolicyChangeSchema.safeParse(change);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  if (Object.values(parsed.data).every((v) => v === undefined)) {
    throw new DomainError("invalid_input", "give at least one setting to change");
  }
  return parsed.data;
}

export async function setImmediateConfirmPolicy({
  storeRef,
  change,
  actor,
}: SetImmediateConfirmPolicyOptions): Promise<ImmediateConfirmPolicy> {
  const wanted = validateChange(change);
  const store = /^\d{10}$/.test(storeRef)
    ? await db().store.findUnique({ where: { npi: storeRef } })
    : await db().store.findUnique({ where: { id: storeRef } });
  if (!store) throw new DomainError("not_found", `no store ${storeRef}`);
  const after = await db().$transaction(async (tx) => {
    // The store row locked, so that concurrent changes get consecutive versions and the audit's "from" is exact.
    await inPrismaTx(tx, lockStoreRow(store.id));
    // Waits for the transfers being judged under the policy in force (confirm-at-intake.ts).
    await inPrismaTx(tx, lockPolicyExclusively(store.npi));
    const row = await tx.immediateConfirmPolicy.findUnique({ where: { storeId: store.id } });
    const before: ImmediateConfirmPolicy = row ? policyOf(row) : defaultPolicy(store.id);
    const next: ImmediateConfirmPolicy = { ...before, ...stripUndefined(wanted), version: before.version + 1 };
    if (next.enabled) {
      if (!next.ownerUserId)
        throw new DomainError("invalid_input", "ownerUserId: name the pharmacist-in-charge who owns the policy");
      if (!next.state) throw new DomainError("invalid_input", "state: the store's state is required to turn it on");
      if (!next.boardRule)
        throw new DomainError("invalid_input", "boardRule: the board rule the store relies on is required");
    }
    if (next.ownerUserId && next.ownerUserId !== before.ownerUserId) {
      const owner = await tx.user.findUnique({ where: { id: next.ownerUserId } });
      if (!owner || owner.role !== "pharmacist" || owner.disabledAt) {
        throw new DomainError("invalid_input", "ownerUserId: the owner must be an active pharmacist");
      }
    }
    const { storeId: _s, version: _v, ...fromSettings } = before;
    const { storeId: _s2, version: _v2, ...toSettings } = next;
    if (JSON.stringify(fromSettings) === JSON.stringify(toSettings)) return before;
    const data = { ...toSettings, version: next.version, changedAt: new Date() };
    await tx.immediateConfirmPolicy.upsert({
      where: { storeId: store.id },
      create: { storeId: store.id, ...data },
      update: data,
    });
    await recordAuditEvent(
      {
        actor,
        action: "store.immediate_confirm_changed",
        details: {
          storeId: store.id,
          npi: store.npi,
          version: next.version,
          from: before as unknown as Prisma.InputJsonValue,
          to: next as unknown as Prisma.InputJsonValue,
        },
      },
      tx,
    );
    return next;
  });
  forgetImmediatePolicies();
  return after;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
