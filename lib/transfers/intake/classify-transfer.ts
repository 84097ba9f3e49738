// What the queue shows and filters on, computed once when a transfer is stored (and again when its store's
// rules change), so that the queue reads columns and never repeats a rule in SQL:
//   - drug_schedule ("II".."V", "none" for a known non-controlled drug, "unknown" when the tables do not know
//     the drug), allergy_alert ("danger", "caution" or NULL) and drug_substance_key (the duplicate-therapy key);
//   - check_flags and warns_from, the review checks (review-checks.ts, the one definition) for the "warnings"
//     filter: the ids of the checks that warn or fail whatever the day, and the store's calendar day from
//     which the dated one (expiry) warns, compared with the store's day when the queue is read.
// Rows stored before a column existed are classified at start-up (classifyStoredTransfers), and a store's
// pending transfers again when its rules or time zone change.
import { getStoreRules } from "@/lib/stores/store-npis";
import {
  selectUnclassified,
  updateClassification,
  type ClassificationColumns,
} from "@/lib/transfers/queries/classification";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import {
  reviewDrug,
  reviewCheckOptions,
  reviewChecks,
  type DrugReview,
  type ReviewCheck,
  type ReviewCheckOptions,
  expiryWarnsFrom,
} from "@/lib/transfers/review";
import { SCHEDULES, substanceKeyOf } from "@/lib/drugs";
import { TransferRequestSchema, type TransferRequest } from "@/lib/interface";

export const DRUG_SCHEDULE_VALUES = [...SCHEDULES, "none", "unknown"] as const;
export type DrugScheduleColumn = (typeof DRUG_SCHEDULE_VALUES)[number];
export type AllergyAlert = "danger" | "caution" | null;

export type TransferClassification = {
  drugSchedule: DrugScheduleColumn;
  allergyAlert: AllergyAlert;
  substanceKey: string | null;
  /** The ids of the review checks that warn or fail whatever the day. */
  checkFlags: string[];
  /** YYYY-MM-DD, the store's day from which the expiry check warns; null when it is in checkFlags instead. */
  warnsFrom: string | null;
};

/**
 * Classifies a transfer for its store (`rules` with the store's time zone: its calendar days decide the
 * dates) as of `now`. The checks are the review screen's, with the same options.
 */
export function classifyTransfer(
  request: TransferRequest,
  rules: StoreRulesInZone,
  now: Date = new Date(),
  options: ReviewCheckOptions = reviewCheckOptions(),
): TransferClassification {
  return classificationOf(request, reviewAtIntake(request, rules, now, options));
}

/** The drug review and the checks a transfer is classified by (and, under a store's policy, qualified by). */
export type IntakeReview = { drug: DrugReview; checks: ReviewCheck[] };

export function reviewAtIntake(
  request: TransferRequest,
  rules: StoreRulesInZone,
  now: Date,
  options: ReviewCheckOptions = reviewCheckOptions(),
): IntakeReview {
  const drug = reviewDrug(request, rules, now);
  return { drug, checks: reviewChecks(request, drug, options) };
}

/** classifyTransfer over a review already made. */
export function classificationOf(request: TransferRequest, { drug, checks }: IntakeReview): TransferClassification {
  const warnsFrom = expiryWarnsFrom(drug);
  const checkFlags = checks
    .filter((c) => (c.status === "warn" || c.status === "fail") && !(c.id === "expiry" && warnsFrom !== null))
    .map((c) => c.id);
  const { match, allergyWarnings } = drug;
  return {
    drugSchedule: match.schedule ?? (match.status === "unknown" ? "unknown" : "none"),
    allergyAlert: allergyWarnings.some((w) => w.severity === "danger")
      ? "danger"
      : allergyWarnings.length
        ? "caution"
        : null,
    substanceKey: substanceKeyOf(request.prescription.medicationName),
    checkFlags,
    warnsFrom,
  };
}

const BATCH = 500;
/**
 * A pass that runs beside the server's requests (the start-up pass) goes gently: small batches, each its own
 * short statements, the event loop given back every few milliseconds of classifying (a batch of 500 held it
 * for tens of milliseconds, which requests arriving meanwhile waited out), and a pause after each batch as long
 * as the batch took, so that the pass takes at most about half of the process while it runs.
 */
const GENTLE_BATCH = 200;
const GENTLE_SLICE_MS = 4;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
const pauseFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Classifies stored transfers with a column not set (rows from before it existed), or, with `receivingNpi`,
 * re-classifies that store's pending transfers after its rules changed. Batched and idempotent: several
 * instances starting at once only repeat each other's work. `options`: the review checks' settings (the
 * environment's unless given); `signal`: stop between batches (the server shutting down); `gentle`: beside
 * live requests, in small batches with pauses (GENTLE_BATCH).
 */
export async function classifyStoredTransfers(
  opts: { receivingNpi?: string; options?: Required<ReviewCheckOptions>; signal?: AbortSignal; gentle?: boolean } = {},
): Promise<number> {
  let done = 0;
  let after = "";
  // A row that only lacks a later column keeps the schedule and allergy alert it was classified with; a
  // store's re-classification replaces them.
  const reclassify = opts.receivingNpi !== undefined;
  const now = new Date();
  const options = opts.options ?? reviewCheckOptions();
  for (;;) {
    if (opts.signal?.aborted) return done;
    const batchStarted = performance.now();
    const limit = opts.gentle ? GENTLE_BATCH : BATCH;
    const rows = await selectUnclassified({ receivingNpi: opts.receivingNpi, after, limit }).execute();
    if (rows.length === 0) return done;
    let sliceStarted = performance.now();
    const batch: ClassificationColumns = {
      ids: [],
      schedules: [],
      alerts: [],
      substanceKeys: [],
      flags: [],
      warnsFrom: [],
    };
    for (const row of rows) {
      if (opts.gentle && performance.now() - sliceStarted >= GENTLE_SLICE_MS) {
        await yieldToRequests();
        sliceStarted = performance.now();
      }
      const parsed = TransferRequestSchema.safeParse(row.request);
      const c: TransferClassification = parsed.success
        ? classifyTransfer(parsed.data, await getStoreRules(row.receiving_npi), now, options)
        : // Not a request (never stored by the intake): flagged, so that the warnings filter shows it.
          { drugSchedule: "unknown", allergyAlert: null, substanceKey: null, checkFlags: ["request"], warnsFrom: null };
      batch.ids.push(row.id);
      batch.schedules.push(c.drugSchedule);
      batch.alerts.push(c.allergyAlert);
      // "" marks a drug name with no key, so that the start-up pass does not pick the row up again.
      batch.substanceKeys.push(c.substanceKey ?? "");
      batch.flags.push(`{${c.checkFlags.join(",")}}`);
      batch.warnsFrom.push(c.warnsFrom);
    }
    await updateClassification(batch, reclassify).execute();
    done += rows.length;
    after = rows[rows.length - 1]!.id;
    if (opts.gentle) await pauseFor(performance.now() - batchStarted);
  }
}
