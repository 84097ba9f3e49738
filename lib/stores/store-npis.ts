// The NPIs a request may name as receivingPharmacy: this pharmacy's stores plus PHARMACY_NPI.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

const TTL_MS = 10_000;
let cache: { at: number; npis: ReadonlySet<string> } | undefined;

/** Cached for a few seconds: the list changes rarely and is read on every intake request. */
export async function getStoreNpis(): Promise<ReadonlySet<string>> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.npis;
  const stores = await db().store.findMany({ select: { npi: true } });
  const npis = new Set([env().PHARMACY_NPI, ...stores.map((s) => s.npi)]);
  cache = { at: Date.now(), npis };
  return npis;
}

/** Makes sure the configured store exists as a row, so the dashboard can show its name. */
export async function ensureConfiguredStore(): Promise<void> {
  const { PHARMACY_NPI, PHARMACY_NAME } = env();
  await db().store.upsert({
    where: { npi: PHARMACY_NPI },
    create: { id: `str_${PHARMACY_NPI}`, npi: PHARMACY_NPI, name: PHARMACY_NAME },
    update: { name: PHARMACY_NAME },
  });
  cache = undefined;
}
