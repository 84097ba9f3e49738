// Work that a transient database error rolled back (isTransientDatabaseError in lib/db/errors.ts: a dropped
// connection, a serialization failure, a deadlock, a lock or statement timeout), run again a few times at
// once before its caller sees the error. The callback worker's steps go through it: a step that throws fails
// its graphile-worker job, which graphile-worker runs again only exp(attempts) seconds later (2.7 s, then
// 7.4 s), together with every job gathered into the same drain (lib/callbacks/drain-gatherer.ts).
import { isTransientDatabaseError } from "@/lib/db/errors";
import { errorFields, log } from "@/lib/log";

/** The pauses before each new run: short, and growing, so that a deadlock's other party can finish first. */
export const TRANSIENT_RETRY_DELAYS_MS: readonly number[] = [20, 100, 400];

export type RetryTransientOptions = {
  /** What the work is, for the log line. */
  what: string;
  delaysMs?: readonly number[];
};

/**
 * `work`'s result, running it again after each transient failure while pauses remain; any other error, or the
 * last one, is thrown. `work` must be all or nothing (one statement, or one transaction).
 */
export async function retryTransient<T>(work: () => Promise<T>, opts: RetryTransientOptions): Promise<T> {
  const delays = opts.delaysMs ?? TRANSIENT_RETRY_DELAYS_MS;
  for (let run = 0; ; run++) {
    try {
      return await work();
    } catch (err) {
      const delay = delays[run];
      if (delay === undefined || !isTransientDatabaseError(err)) throw err;
      log("warn", "transient database error: running it again", { what: opts.what, run: run + 1, ...errorFields(err) });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
