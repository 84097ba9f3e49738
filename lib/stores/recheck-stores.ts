// The stored check flags follow the server's review-check settings (EARLY_REFILL_ALLOWANCE_PERCENT): a store
// whose pending transfers were checked with other settings has them checked again, then records the settings.
// A store is marked only after its pass, so a pass cut short (a restart) is done again by the next start-up.
import { sqlDb } from "@/lib/db/kysely";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import { reviewCheckOptions, type ReviewCheckOptions } from "@/lib/transfers/review";

export type RecheckResult = { stores: number; transfers: number };

export async function recheckStoresForCheckOptions(
  opts: { options?: Required<ReviewCheckOptions>; signal?: AbortSignal; gentle?: boolean } = {},
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
    result.transfers += await classifyStoredTransfers({
      receivingNpi: npi,
      options,
      signal: opts.signal,
      gentle: opts.gentle,
    });
    if (opts.signal?.aborted) break;
    await sqlDb().updateTable("stores").set({ check_options: current }).where("npi", "=", npi).execute();
    result.stores += 1;
  }
  return result;
}

const secondsSince = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/**
 * At start-up, while the server answers: fills the check flags of rows stored before they existed, then
 * re-checks the stores checked with other settings. Until then the warnings filter shows such a row (NULL
 * flags) as not yet checked. It goes gently (small batches with pauses: classifyStoredTransfers), so that
 * the requests the server answers meanwhile do not wait behind it; it says how long it took, so that an
 * operator sees how long a start-up's requests shared the process with it. `stop()` ends it between
 * batches; the next start-up resumes it.
 */
export function startCheckFlagsPass(say: (msg: string) => void): { stop(): Promise<void> } {
  const abort = new AbortController();
  const done = (async () => {
    let started = performance.now();
    const classified = await classifyStoredTransfers({ signal: abort.signal, gentle: true });
    if (classified > 0)
      say(
        `classified ${classified} stored transfers (schedule, allergy alert, review checks) in ${secondsSince(started)}`,
      );
    started = performance.now();
    const rechecked = await recheckStoresForCheckOptions({ signal: abort.signal, gentle: true });
    if (rechecked.transfers > 0) {
      say(
        `checked ${rechecked.transfers} pending transfers of ${rechecked.stores} stores again with this server's review-check settings in ${secondsSince(started)}`,
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
