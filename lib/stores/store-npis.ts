// This pharmacy's stores as intake and review read them: the NPIs a request may name as receivingPharmacy
// (the stores plus PHARMACY_NPI), and each store's drug rules (state schedules, prescription validity).
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { parseStoreRules, DEFAULT_STORE_RULES, type StoreRules } from "@/lib/stores/store-rules";

const TTL_MS = 10_000;
type Directory = { npis: ReadonlySet<string>; rules: ReadonlyMap<string, StoreRules> };
let cache: { at: number; directory: Directory } | undefined;

/** Cached for a few seconds: the list changes rarely and is read on every intake request. */
async function storeDirectory(): Promise<Directory> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.directory;
  const stores = await db().store.findMany({ select: { npi: true, extraSchedules: true, rxExpiryMonths: true } });
  const directory: Directory = {
    npis: new Set([env().PHARMACY_NPI, ...stores.map((s) => s.npi)]),
    rules: new Map(stores.map((s) => [s.npi, parseStoreRules(s)])),
  };
  cache = { at: Date.now(), directory };
  return directory;
}

export async function getStoreNpis(): Promise<ReadonlySet<string>> {
  return (await storeDirectory()).npis;
}

/** The drug rules of the store a transfer is addressed to (the federal defaults for an unknown NPI). */
export async function getStoreRules(npi: string): Promise<StoreRules> {
  return (await storeDirectory()).rules.get(npi) ?? DEFAULT_STORE_RULES;
}

/** Every store's rules by NPI, for a page of transfers addressed to several stores. */
export async function getAllStoreRules(): Promise<ReadonlyMap<string, StoreRules>> {
  return (await storeDirectory()).rules;
}

/** After a store is added, changed or removed: the next read goes to the database. */
export function forgetStoreDirectory(): void {
  cache = undefined;
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
