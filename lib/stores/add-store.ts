// An admin adds a store: an NPI that incoming requests may name as receivingPharmacy. Audited; the store
// directory cache is dropped so that intake sees the new NPI at once.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";
import { isValidDea, isValidNpi } from "@/lib/transfers/identifiers";
import { AddressSchema } from "@/lib/transfers/wire";

/** address: the wire shape (lib/transfers/wire.ts AddressSchema), checked again here. */
export type AddStoreOptions = { name: string; npi: string; dea?: string | null; address?: unknown; actor: Actor };

export async function addStore({ actor, ...input }: AddStoreOptions) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError("invalid_input", "store name must be 1-200 characters");
  if (!isValidNpi(input.npi)) throw new DomainError("invalid_input", "NPI must be 10 digits with a valid check digit");
  if (input.dea && !isValidDea(input.dea))
    throw new DomainError("invalid_input", "DEA number is not valid (2 letters, 7 digits, check digit)");
  let address: Prisma.InputJsonValue | undefined;
  if (input.address !== undefined && input.address !== null) {
    const parsed = AddressSchema.safeParse(input.address);
    if (!parsed.success)
      throw new DomainError(
        "invalid_input",
        `address: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
      );
    address = parsed.data;
  }
  if (await db().store.findUnique({ where: { npi: input.npi } }))
    throw new DomainError("conflict", `a store with NPI ${input.npi} exists`);
  const store = await db().$transaction(async (tx) => {
    const store = await tx.store.create({
      data: { id: newId("str"), name, npi: input.npi, dea: input.dea || null, address },
    });
    await recordAuditEvent(
      {
        userId: actor.userId,
        actor: actor.label,
        action: "store.added",
        clientAddress: actor.clientAddress,
        details: { storeId: store.id, npi: store.npi },
      },
      tx,
    );
    return store;
  });
  forgetStoreDirectory();
  return { storeId: store.id };
}
