// This pharmacy's stores as intake and review read them: the NPIs a request may name as receivingPharmacy
// (the stores plus PHARMACY_NPI), each store's drug rules (state schedules, prescription validity), and each
// store's alert settings (thresholds, opening hours), which every queue page and alerts poll reads.
import { parseStoreAlertSettings, type StoreAlertSettings } from "@/lib/alerts/alert-settings";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { inZone, parseStoreRules, DEFAULT_STORE_RULES, type StoreRulesInZone } from "@/lib/stores/store-rules";

const TTL_MS = 10_000;
type Directory = {
  npis: ReadonlySet<string>;
  rules: ReadonlyMap<string, StoreRulesInZone>;
  alerts: ReadonlyMap<string, StoreAlertSettings>;
};
/**
 * One cache per process, kept on globalThis: under `npm start` this module is loaded twice (by Next's route
 * bundles, where the admin API forgets it, and by the direct /v1 route of lib/http/production-server.ts,
 * which reads it), and a forget must reach both. `generation` is bumped by every forget: a read that started
 * before a store changed may finish after the forget, and must not put the old list back.
 */
type DirectoryCache = {
  entry?: { at: number; directory: Directory };
  generation: number;
  /** The read under way: concurrent misses (every in-flight intake request at expiry) share one. */
  loading?: { generation: number; promise: Promise<Directory> };
};
const shared = globalThis as typeof globalThis & { __rxStoreDirectory?: DirectoryCache };
const state: DirectoryCache = (shared.__rxStoreDirectory ??= { generation: 0 });

/**
 * Cached for a few seconds: the list changes rarely and is read on every intake request. A change made here
 * forgets it at once; other processes (instances, the worker) see it when their copy expires, within TTL_MS.
 */
async function storeDirectory(): Promise<Directory> {
  const cached = state.entry;
  if (cached && Date.now() - cached.at < TTL_MS) return cached.directory;
  if (state.loading && state.loading.generation === state.generation) return state.loading.promise;
  const startedIn = state.generation;
  const promise = readDirectory(startedIn);
  state.loading = { generation: startedIn, promise };
  const settled = () => {
    if (state.loading?.promise === promise) state.loading = undefined;
  };
  promise.then(settled, settled);
  return promise;
}

async function readDirectory(startedIn: number): Promise<Directory> {
  const stores = await db().store.findMany({
    select: {
      npi: true,
      extraSchedules: true,
      rxExpiryMonths: true,
      alertThresholdsMinutes: true,
      openingHours: true,
      timeZone: true,
    },
  });
  const directory: Directory = {
    npis: new Set([env().PHARMACY_NPI, ...stores.map((s) => s.npi)]),
    rules: new Map(stores.map((s) => [s.npi, inZone(parseStoreRules(s), s.timeZone)])),
    alerts: new Map(stores.map((s) => [s.npi, parseStoreAlertSettings(s)])),
  };
  if (startedIn === state.generation) state.entry = { at: Date.now(), directory };
  return directory;
}

export async function getStoreNpis(): Promise<ReadonlySet<string>> {
  return (await storeDirectory()).npis;
}

/**
 * The drug rules of the store a transfer is addressed to, with its time zone (the federal defaults and UTC
 * for an unknown NPI).
 */
export async function getStoreRules(npi: string): Promise<StoreRulesInZone> {
  return (await storeDirectory()).rules.get(npi) ?? DEFAULT_STORE_RULES;
}

/** Every store's rules by NPI, for a page of transfers addressed to several stores. */
export async function getAllStoreRules(): Promise<ReadonlyMap<string, StoreRulesInZone>> {
  return (await storeDirectory()).rules;
}

/** Each store's alert settings by NPI (an NPI without a store row gets the defaults: DEFAULT_ALERT_SETTINGS). */
export async function getAllStoreAlertSettings(): Promise<ReadonlyMap<string, StoreAlertSettings>> {
  return (await storeDirectory()).alerts;
}

/** After a store is added, changed or removed, or its rules or alert settings change: the next read goes to the database. */
export function forgetStoreDirectory(): void {
  state.generation++;
  state.entry = undefined;
}

/** Makes sure the configured store exists as a row, so the dashboard can show its name. */
export async function ensureConfiguredStore(): Promise<void> {
  const { PHARMACY_NPI, PHARMACY_NAME } = env();
  await db().store.upsert({
    where: { npi: PHARMACY_NPI },
    create: { id: `str_${PHARMACY_NPI}`, npi: PHARMACY_NPI, name: PHARMACY_NAME },
    update: { name: PHARMACY_NAME },
  });
  forgetStoreDirectory();
}
