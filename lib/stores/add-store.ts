// An admin adds a store: an NPI that incoming requests may name as receivingPharmacy. Audited; the store
// directory cache is dropped so that intake sees the new NPI at once.
import * as z from "zod";
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError, parseInput } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";
import { StoreInputSchema } from "@/lib/stores/store-inputs";
import { AddressSchema } from "@/lib/interface";

/** address: the wire shape (lib/interface/wire.ts AddressSchema). */
export type AddStoreOptions = { name: string; npi: string; dea?: string | null; address?: unknown; actor: Actor };

/** The wire's address, named as such in a refusal ("address.postalCode: …"). */
const StoreAddressSchema = z.object({ address: AddressSchema.nullish() });

export async function addStore({ actor, ...given }: AddStoreOptions) {
  // The schemas the API and the CLI validate with (store-inputs.ts): the CLI and tests call this directly.
  const input = parseInput(StoreInputSchema, { name: given.name, npi: given.npi, dea: given.dea ?? undefined });
  const name = input.name;
  const address: Prisma.InputJsonValue | undefined =
    parseInput(StoreAddressSchema, { address: given.address }).address ?? undefined;
  if (await db().store.findUnique({ where: { npi: input.npi } }))
    throw new DomainError("conflict", `a store with NPI ${input.npi} exists`);
  const store = await db().$transaction(async (tx) => {
    const store = await tx.store.create({
      data: { id: newId("str"), name, npi: input.npi, dea: input.dea || null, address },
    });
    await recordAuditEvent(
      {
        actor,
        action: "store.added",
        details: { storeId: store.id, npi: store.npi },
      },
      tx,
    );
    return store;
  });
  forgetStoreDirectory();
  return { storeId: store.id };
}
