// The stored check flags follow the server's review-check settings (EARLY_REFILL_ALLOWANCE_PERCENT): a store
// whose pending transfers were checked with other settings has them checked again, then records the settings.
// A store is marked only after its pass, so a pass cut short (a restart) is done again by the next start-up.
import { sqlDb } from "@/lib/db/kysely";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import { reviewCheckOptions, type ReviewCheckOptions } from "@/lib/transfers/review";

export type RecheckResult = { stores: number; transfers: number };

export async function recheckStoresForCheckOptions(
  opts: { options?: Required<ReviewCheckOptions>; signal?: AbortSignal } = {},
): Promise<RecheckResult> {
  const options = opts.options ?? reviewCheckOptions();
  const current = JSON.stringify(options);
  const stale = await sqlDb()
    .selectFrom("stores")
    .select("npi")
    .where((eb) => eb.or([eb("check_options", "is", null), eb("check_options", "<>", current)]))
    .orderBy("npi")
    .execute();
  const result: RecheckResult = { stores: 0, transfers: 0 };
  for (const { npi } of stale) {
    result.transfers += await classifyStoredTransfers({ receivingNpi: npi, options, signal: opts.signal });
    if (opts.signal?.aborted) break;
    await sqlDb().updateTable("stores").set({ check_options: current }).where("npi", "=", npi).execute();
    result.stores += 1;
  }
  return result;
}

/**
 * At start-up, while the server answers: fills the check flags of rows stored before they existed, then
 * re-checks the stores checked with other settings. Until then the warnings filter shows such a row (NULL
 * flags) as not yet checked. `stop()` ends it between batches; the next start-up resumes it.
 */
export function startCheckFlagsPass(say: (msg: string) => void): { stop(): Promise<void> } {
  const abort = new AbortController();
  const done = (async () => {
    const classified = await classifyStoredTransfers({ signal: abort.signal });
    if (classified > 0) say(`classified ${classified} stored transfers (schedule, allergy alert, review checks)`);
    const rechecked = await recheckStoresForCheckOptions({ signal: abort.signal });
    if (rechecked.transfers > 0) {
      say(
        `checked ${rechecked.transfers} pending transfers of ${rechecked.stores} stores again with this server's review-check settings`,
      );
    }
  })().catch((err: unknown) => {
    say(
      `the start-up classification stopped (${err instanceof Error ? err.message : String(err)}); the next start-up resumes it`,
    );
  });
  return {
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}
