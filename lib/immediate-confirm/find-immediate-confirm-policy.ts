// The stores (by NPI) that have immediate confirmation on, with their policy and drug rules as intake judges
// by them, cached for a few seconds per process and forgotten on a change made here. The cache routes a
// request and lets intake judge the request's own part before its transaction; inside the transaction the
// policy and rules are read again, and the decision is written only under the version read (queries/confirmation.ts), so a
// stale entry never confirms under a policy changed or turned off: intake starts again with a fresh read.
import { sqlDb } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { selectEnabledPolicies, type PolicyFacts } from "@/lib/immediate-confirm/queries/policy";
import { defaultPolicy, policyOf, type ImmediateConfirmPolicy } from "@/lib/immediate-confirm/policy-rules";
import { inZone, parseStoreRules, type StoreRulesInZone } from "@/lib/stores/store-rules";

/** A store's policy as intake read it, with the store's drug rules parsed once. */
export type CachedPolicy = PolicyFacts & { npi: string; rules: StoreRulesInZone };

const TTL_MS = 10_000;
type Cache = { entry?: { at: number; policies: ReadonlyMap<string, CachedPolicy> }; generation: number };
// On globalThis for the same reason as the store directory (lib/stores/store-npis.ts): two module copies under npm start.
const shared = globalThis as typeof globalThis & { __rxImmediatePolicies?: Cache };
const cache: Cache = (shared.__rxImmediatePolicies ??= { generation: 0 });

export function forgetImmediatePolicies(): void {
  cache.entry = undefined;
  cache.generation++;
}

/** The same facts, in the same form, whether read for the cache or inside intake's transaction. */
export function cachedPolicyOf(npi: string, facts: PolicyFacts): CachedPolicy {
  const rules = inZone(
    parseStoreRules({ extraSchedules: facts.extra_schedules, rxExpiryMonths: facts.rx_expiry_months }),
    facts.time_zone,
  );
  return { ...facts, npi, rules };
}

async function enabledPolicies(): Promise<ReadonlyMap<string, CachedPolicy>> {
  const hit = cache.entry;
  if (hit && Date.now() - hit.at < TTL_MS) return hit.policies;
  const startedIn = cache.generation;
  const rows = await selectEnabledPolicies(sqlDb()).execute();
  const policies = new Map(rows.map(({ npi, ...facts }) => [npi, cachedPolicyOf(npi, facts)]));
  if (cache.generation === startedIn) cache.entry = { at: Date.now(), policies };
  return policies;
}

/** The receiving NPIs whose store has the policy on. */
export async function findImmediateConfirmNpis(): Promise<ReadonlySet<string>> {
  return new Set((await enabledPolicies()).keys());
}

/** The policy of the store at this NPI when it is on, or null. */
export async function findImmediatePolicy(npi: string): Promise<CachedPolicy | null> {
  return (await enabledPolicies()).get(npi) ?? null;
}

export async function findImmediateConfirmPolicy(storeId: string): Promise<ImmediateConfirmPolicy> {
  const row = await db().immediateConfirmPolicy.findUnique({ where: { storeId } });
  return row ? policyOf(row) : defaultPolicy(storeId);
}
