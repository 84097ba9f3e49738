// The drug columns of a stored transfer (with drug_substance_key, the duplicate-therapy key), classified at intake so the queue can show and filter them from an
// index: transfers.drug_schedule ("II".."V", "none" for a known non-controlled drug, "unknown" when the tables
// do not know the drug) and transfers.allergy_alert ("danger", "caution" or NULL). Rows stored before these
// columns existed are classified once at start-up (classifyUnclassifiedTransfers), and a store's pending
// transfers again when its state schedules change.
import { allergyWarnings, scheduleOf, substanceKeyOf } from "@/lib/drugs";
import { listedAllergies } from "@/lib/transfers/no-known-allergies";
import { db } from "@/lib/db/prisma";
import { getStoreRules } from "@/lib/stores/store-npis";
import type { StoreRules } from "@/lib/stores/store-rules";
import { TransferRequestSchema, type TransferRequest } from "@/lib/transfers/wire";

export const DRUG_SCHEDULE_VALUES = ["II", "III", "IV", "V", "none", "unknown"] as const;
export type DrugScheduleColumn = (typeof DRUG_SCHEDULE_VALUES)[number];
export type AllergyAlert = "danger" | "caution" | null;

export type TransferClassification = {
  drugSchedule: DrugScheduleColumn;
  allergyAlert: AllergyAlert;
  substanceKey: string | null;
};

export function classifyTransfer(request: TransferRequest, rules: StoreRules): TransferClassification {
  const rx = request.prescription;
  const match = scheduleOf(rx, { extraSchedules: rules.extraSchedules });
  const warnings = allergyWarnings(rx.medicationName, listedAllergies(request.patient.allergyDetails));
  return {
    drugSchedule: match.schedule ?? (match.status === "unknown" ? "unknown" : "none"),
    allergyAlert: warnings.some((w) => w.severity === "danger") ? "danger" : warnings.length ? "caution" : null,
    substanceKey: substanceKeyOf(rx.medicationName),
  };
}

const BATCH = 500;

/**
 * Classifies stored transfers whose drug columns are not set (rows from before the columns existed), or, with
 * `receivingNpi`, re-classifies that store's pending transfers after its rules changed. Batched and
 * idempotent: several instances starting at once only repeat each other's work.
 */
export async function classifyStoredTransfers(opts: { receivingNpi?: string } = {}): Promise<number> {
  let done = 0;
  let after = "";
  // A row that only lacks its substance key (stored before migration 20261124130000) keeps the schedule and
  // allergy alert it was classified with; a store's re-classification replaces them.
  const reclassify = opts.receivingNpi !== undefined;
  for (;;) {
    const rows = opts.receivingNpi
      ? await db().$queryRaw<{ id: string; request: unknown; receiving_npi: string }[]>`
          SELECT id, request, receiving_npi FROM transfers
           WHERE receiving_npi = ${opts.receivingNpi} AND status = 'RECEIVED' AND id > ${after}
           ORDER BY id LIMIT ${BATCH}`
      : await db().$queryRaw<{ id: string; request: unknown; receiving_npi: string }[]>`
          SELECT id, request, receiving_npi FROM transfers
           WHERE (drug_schedule IS NULL OR drug_substance_key IS NULL) AND id > ${after}
           ORDER BY id LIMIT ${BATCH}`;
    if (rows.length === 0) return done;
    const ids: string[] = [];
    const schedules: string[] = [];
    const alerts: (string | null)[] = [];
    const substanceKeys: (string | null)[] = [];
    for (const row of rows) {
      const parsed = TransferRequestSchema.safeParse(row.request);
      const c = parsed.success
        ? classifyTransfer(parsed.data, await getStoreRules(row.receiving_npi))
        : { drugSchedule: "unknown", allergyAlert: null, substanceKey: null };
      ids.push(row.id);
      schedules.push(c.drugSchedule);
      alerts.push(c.allergyAlert);
      // "" marks a drug name with no key, so that the start-up pass does not pick the row up again.
      substanceKeys.push(c.substanceKey ?? "");
    }
    await db().$executeRaw`
      UPDATE transfers t
         SET drug_schedule = CASE WHEN ${reclassify} OR t.drug_schedule IS NULL THEN c.drug_schedule ELSE t.drug_schedule END,
             allergy_alert = CASE WHEN ${reclassify} OR t.drug_schedule IS NULL THEN c.allergy_alert ELSE t.allergy_alert END,
             drug_substance_key = c.substance_key
        FROM unnest(${ids}::text[], ${schedules}::text[], ${alerts}::text[], ${substanceKeys}::text[]) AS c(id, drug_schedule, allergy_alert, substance_key)
       WHERE t.id = c.id`;
    done += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}
