// Every /v1 answer a partner gets, counted the way the sender counts them (failure-rate.ts), per partner and
// minute in partner_answer_counts, so that every instance's answers add up. The intake must not pay for it:
// an answer only increments a counter in memory, and each instance adds its counters to the table in one
// statement every FLUSH_MS, off the request path. What a crash loses is at most those few seconds of counts;
// a flush that fails (database away) keeps its counts for the next one. Rows older than two days are deleted.
import { poolQuery } from "@/lib/db/pool-query";
import { errorFields, log } from "@/lib/log";
import { answerKindOf, answerRateOf, NO_ANSWERS, type PartnerAnswerRate } from "@/lib/partners/failure-rate";
import { addAnswerCounts, deleteOldAnswerCounts, selectAnswerRates } from "@/lib/partners/sql";

export const FLUSH_MS = 5_000;
/** Distinct (partner, minute) counters held while the database is away; beyond, the oldest are dropped. */
const MAX_PENDING = 10_000;
const CLEANUP_EVERY_MS = 60 * 60 * 1000;

type Pending = { answers: number; failures: number; clientErrors: number };
type Recorder = {
  pending: Map<string, Pending>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  cleanedAt: number;
};

// On globalThis: under `npm start` the launcher and Next's bundle each load this module in one process.
const KEY = Symbol.for("rx-transfer.partners.answer-counts");
const store = globalThis as unknown as { [KEY]?: Recorder };
const recorder = (): Recorder => (store[KEY] ??= { pending: new Map(), timer: null, flushing: null, cleanedAt: 0 });

/** Counts one /v1 answer to a partner (no partner known: nothing to count). Never throws, never waits. */
export function recordPartnerAnswer(partnerId: string | undefined, status: number, elapsedMs: number): void {
  if (!partnerId) return;
  const r = recorder();
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const key = `${minute}|${partnerId}`;
  let counts = r.pending.get(key);
  if (!counts) {
    if (r.pending.size >= MAX_PENDING) r.pending.delete(r.pending.keys().next().value!);
    counts = { answers: 0, failures: 0, clientErrors: 0 };
    r.pending.set(key, counts);
  }
  counts.answers += 1;
  const kind = answerKindOf(status, elapsedMs);
  if (kind === "failure") counts.failures += 1;
  else if (kind === "client_error") counts.clientErrors += 1;
  if (!r.timer) {
    r.timer = setInterval(() => void flushPartnerAnswers(), FLUSH_MS);
    r.timer.unref();
  }
}

/** Adds the counters held in memory to the table (also at shutdown and in tests). Never throws. */
export async function flushPartnerAnswers(): Promise<void> {
  const r = recorder();
  if (r.flushing) await r.flushing;
  if (r.pending.size === 0) return;
  const batch = r.pending;
  r.pending = new Map();
  r.flushing = writeCounts(batch)
    .catch((err: unknown) => {
      log("warn", "partner answer counts not written; kept for the next flush", errorFields(err));
      for (const [key, c] of batch) {
        const now = r.pending.get(key);
        if (now) {
          now.answers += c.answers;
          now.failures += c.failures;
          now.clientErrors += c.clientErrors;
        } else if (r.pending.size < MAX_PENDING) r.pending.set(key, c);
      }
    })
    .finally(() => {
      r.flushing = null;
    });
  await r.flushing;
}

async function writeCounts(batch: Map<string, Pending>): Promise<void> {
  const partners: string[] = [];
  const minutes: Date[] = [];
  const answers: number[] = [];
  const failures: number[] = [];
  const clientErrors: number[] = [];
  for (const [key, c] of batch) {
    const bar = key.indexOf("|");
    minutes.push(new Date(Number(key.slice(0, bar))));
    partners.push(key.slice(bar + 1));
    answers.push(c.answers);
    failures.push(c.failures);
    clientErrors.push(c.clientErrors);
  }
  // A partner deleted meanwhile has no row to point at; the table has no foreign key, its rows just age out.
  await poolQuery(addAnswerCounts({ partners, minutes, answers, failures, clientErrors }));
  const r = recorder();
  if (Date.now() - r.cleanedAt > CLEANUP_EVERY_MS) {
    r.cleanedAt = Date.now();
    await poolQuery(deleteOldAnswerCounts());
  }
}

/** Each partner's answers of the last hour (all instances), by partner id; only partners that had any. */
export async function readPartnerAnswerRates(partnerIds?: string[]): Promise<Map<string, PartnerAnswerRate>> {
  const rows = await selectAnswerRates(partnerIds).execute();
  return new Map(
    rows.map((r) => [
      r.partner_id,
      answerRateOf({ answers: r.answers, failures: r.failures, clientErrors: r.client_errors }),
    ]),
  );
}

/** One partner's last hour (zero answers when it had none). */
export async function readPartnerAnswerRate(partnerId: string): Promise<PartnerAnswerRate> {
  return (await readPartnerAnswerRates([partnerId])).get(partnerId) ?? answerRateOf(NO_ANSWERS);
}
