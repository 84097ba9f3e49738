// Which stores (by NPI) have immediate confirmation on, as intake reads it on every request: cached for a few
// seconds per process. The cache only routes a request to the path that checks; that path reads the policy
// again inside its transaction, so a stale "on" never confirms under a policy turned off.
import { db } from "@/lib/db/prisma";
import { defaultPolicy, policyOf, type ImmediateConfirmPolicy } from "@/lib/immediate-confirm/policy-rules";

const TTL_MS = 10_000;
type Cache = { entry?: { at: number; npis: ReadonlySet<string> }; generation: number };
// On globalThis for the same reason as the store directory (lib/stores/store-npis.ts): two module copies under npm start.
const shared = globalThis as typeof globalThis & { __rxImmediatePolicies?: Cache };
const cache: Cache = (shared.__rxImmediatePolicies ??= { generation: 0 });

export function forgetImmediatePolicies(): void {
  cache.entry = undefined;
  cache.generation++;
}

/** The receiving NPIs whose store has the policy on. */
export async function findImmediateConfirmNpis(): Promise<ReadonlySet<string>> {
  const hit = cache.entry;
  if (hit && Date.now() - hit.at < TTL_MS) return hit.npis;
  const startedIn = cache.generation;
  const rows = await db().$queryRaw<{ npi: string }[]>`
    SELECT s.npi FROM immediate_confirm_policies p JOIN stores s ON s.id = p.store_id WHERE p.enabled`;
  const npis = new Set(rows.map((r) => r.npi));
  if (cache.generation === startedIn) cache.entry = { at: Date.now(), npis };
  return npis;
}

export async function findImmediateConfirmPolicy(storeId: string): Promise<ImmediateConfirmPolicy> {
  const row = await db().immediateConfirmPolicy.findUnique({ where: { storeId } });
  return row ? policyOf(row) : defaultPolicy(storeId);
}
