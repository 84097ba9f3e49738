// An admin removes a store (not the one configured as PHARMACY_NPI). Audited; the store directory cache is dropped.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";

export type RemoveStoreOptions = { storeId: string; actor: Actor };

export async function removeStore({ storeId, actor }: RemoveStoreOptions): Promise<void> {
  const store = await db().store.findUnique({ where: { id: storeId } });
  if (!store) throw new DomainError("not_found", `no store ${storeId}`);
  if (store.npi === env().PHARMACY_NPI)
    throw new DomainError("conflict", "this store is PHARMACY_NPI, configured in the environment; change it there");
  await db().$transaction(async (tx) => {
    await tx.store.delete({ where: { id: storeId } });
    await recordAuditEvent(
      {
        actor,
        action: "store.removed",
        details: { storeId, npi: store.npi },
      },
      tx,
    );
  });
  forgetStoreDirectory();
}
