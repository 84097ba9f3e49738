// This pharmacy's stores: the NPIs an incoming request may name as receivingPharmacy.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { AddressSchema } from "@/lib/transfers/wire";
import { isValidDea, isValidNpi } from "@/lib/transfers/identifiers";
import type { Prisma } from "@/generated/prisma/client";

export type StoreInput = { name: string; npi: string; dea?: string | null; address?: unknown };

export async function addStore(input: StoreInput, actor: Actor) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError("invalid_input", "store name must be 1-200 characters");
  if (!isValidNpi(input.npi)) throw new DomainError("invalid_input", "NPI must be 10 digits with a valid check digit");
  if (input.dea && !isValidDea(input.dea)) throw new DomainError("invalid_input", "DEA number is not valid (2 letters, 7 digits, check digit)");
  let address: Prisma.InputJsonValue | undefined;
  if (input.address !== undefined && input.address !== null) {
    const parsed = AddressSchema.safeParse(input.address);
    if (!parsed.success) throw new DomainError("invalid_input", `address: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
    address = parsed.data;
  }
  if (await db().store.findUnique({ where: { npi: input.npi } })) throw new DomainError("conflict", `a store with NPI ${input.npi} exists`);
  const store = await db().store.create({ data: { id: newId("str"), name, npi: input.npi, dea: input.dea || null, address } });
  await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "store.added", clientAddress: actor.clientAddress, details: { storeId: store.id, npi: store.npi } });
  return { storeId: store.id };
}

export async function removeStore(storeId: string, actor: Actor): Promise<void> {
  const store = await db().store.findUnique({ where: { id: storeId } });
  if (!store) throw new DomainError("not_found", `no store ${storeId}`);
  if (store.npi === env().PHARMACY_NPI) throw new DomainError("conflict", "this store is PHARMACY_NPI, configured in the environment; change it there");
  await db().store.delete({ where: { id: storeId } });
  await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "store.removed", clientAddress: actor.clientAddress, details: { storeId, npi: store.npi } });
}

export async function listStores() {
  const stores = await db().store.findMany({ orderBy: { createdAt: "asc" } });
  return stores.map((s) => ({ storeId: s.id, name: s.name, npi: s.npi, dea: s.dea, address: s.address, configured: s.npi === env().PHARMACY_NPI }));
}
