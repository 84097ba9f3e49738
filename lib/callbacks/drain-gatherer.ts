// The delivery jobs one worker starts within a few milliseconds of each other share one drain. While
// approvals stream in, each new job is fetched and started alone, and the callbacks of the others that are
// running are locked by this worker, so that no job's claim could take another's: each paid its own claim and
// success statements (bench/HISTORY.md). Gathered, they cost one of each (drain-callbacks.ts), and the claim
// also takes the partners' due callbacks whose jobs are still waiting. A group goes at once when every one of
// the worker's slots has joined it, else after `lingerMs` (CALLBACK_GATHER_MS): the most a callback waits.
import { drainCallbacks } from "@/lib/callbacks/drain-callbacks";
import type { DeliveryOutcome } from "@/lib/callbacks/claim-callback-attempt";

type Waiting = {
  callbackId: string;
  signal?: AbortSignal;
  resolve: (outcome: DeliveryOutcome | undefined) => void;
  reject: (err: unknown) => void;
};

export type DrainGatherer = (callbackId: string, signal?: AbortSignal) => Promise<DeliveryOutcome | undefined>;

export type DrainGathererOptions = {
  /** CALLBACK_BATCH_SIZE. */
  batchSize: number;
  /** CALLBACK_GATHER_MS: 0 gathers only the jobs started in the same turn of the event loop. */
  lingerMs: number;
  /** WORKER_CONCURRENCY: no more jobs can join a group this big. */
  slots: number;
};

/** One per worker. */
export function createDrainGatherer(opts: DrainGathererOptions): DrainGatherer {
  let gathering: { group: Waiting[]; cancelTimer: () => void } | null = null;

  const drain = async (group: Waiting[]) => {
    // Two jobs of one callback can run at once (one re-added while the other ran); it is claimed once.
    const ids = [...new Set(group.map((w) => w.callbackId))];
    const signals = group.flatMap((w) => (w.signal ? [w.signal] : []));
    try {
      const { outcomes, failed } = await drainCallbacks({
        callbackIds: ids,
        batchSize: opts.batchSize,
        signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
      });
      // Only a job whose own callback met lasting database trouble fails (graphile-worker retries it).
      for (const w of group)
        if (failed.has(w.callbackId)) w.reject(failed.get(w.callbackId));
        else w.resolve(outcomes.get(w.callbackId));
    } catch (err) {
      // The claim itself met lasting database trouble: every job of the group fails and graphile-worker
      // retries each (exp(attempts) seconds later).
      for (const w of group) w.reject(err);
    }
  };

  const flush = () => {
    if (!gathering) return;
    const { group, cancelTimer } = gathering;
    gathering = null;
    cancelTimer();
    void drain(group);
  };

  const startTimer = (): (() => void) => {
    if (opts.lingerMs <= 0) {
      const immediate = setImmediate(flush);
      return () => clearImmediate(immediate);
    }
    const timeout = setTimeout(flush, opts.lingerMs);
    return () => clearTimeout(timeout);
  };

  return (callbackId, signal) =>
    new Promise((resolve, reject) => {
      gathering ??= { group: [], cancelTimer: startTimer() };
      gathering.group.push({ callbackId, signal, resolve, reject });
      if (gathering.group.length >= opts.slots) flush();
    });
}
