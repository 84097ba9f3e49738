// The drug columns of a stored transfer, classified at intake so the queue can show and filter them from an
// index: transfers.drug_schedule ("II".."V", "none" for a known non-controlled drug, "unknown" when the tables
// do not know the drug) and transfers.allergy_alert ("danger", "caution" or NULL). Rows stored before these
// columns existed are classified once at start-up (classifyUnclassifiedTransfers), and a store's pending
// transfers again when its state schedules change.
import { allergyWarnings, scheduleOf } from "@/lib/drugs";
import { db } from "@/lib/db/prisma";
import { getStoreRules } from "@/lib/stores/store-npis";
import type { StoreRules } from "@/lib/stores/store-rules";
import { TransferRequestSchema, type TransferRequest } from "@/lib/transfers/wire";

export const DRUG_SCHEDULE_VALUES = ["II", "III", "IV", "V", "none", "unknown"] as const;
export type DrugScheduleColumn = (typeof DRUG_SCHEDULE_VALUES)[number];
export type AllergyAlert = "danger" | "caution" | null;

export function classifyTransfer(request: TransferRequest, rules: StoreRules): { drugSchedule: DrugScheduleColumn; allergyAlert: AllergyAlert } {
  const rx = request.prescription;
  const match = scheduleOf(rx, { extraSchedules: rules.extraSchedules });
  const warnings = allergyWarnings(rx.medicationName, request.patient.allergyDetails.allergies);
  return {
    drugSchedule: match.schedule ?? (match.status === "unknown" ? "unknown" : "none"),
    allergyAlert: warnings.some((w) => w.severity === "danger") ? "danger" : warnings.length ? "caution" : null,
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
  for (;;) {
    const rows = opts.receivingNpi
      ? await db().$queryRaw<{ id: string; request: unknown; receiving_npi: string }[]>`
          SELECT id, request, receiving_npi FROM transfers
           WHERE receiving_npi = ${opts.receivingNpi} AND status = 'RECEIVED' AND id > ${after}
           ORDER BY id LIMIT ${BATCH}`
      : await db().$queryRaw<{ id: string; request: unknown; receiving_npi: string }[]>`
          SELECT id, request, receiving_npi FROM transfers
           WHERE drug_schedule IS NULL AND id > ${after}
           ORDER BY id LIMIT ${BATCH}`;
    if (rows.length === 0) return done;
    const ids: string[] = [];
    const schedules: string[] = [];
    const alerts: (string | null)[] = [];
    for (const row of rows) {
      const parsed = TransferRequestSchema.safeParse(row.request);
      const c = parsed.success ? classifyTransfer(parsed.data, await getStoreRules(row.receiving_npi)) : { drugSchedule: "unknown", allergyAlert: null };
      ids.push(row.id);
      schedules.push(c.drugSchedule);
      alerts.push(c.allergyAlert);
    }
    await db().$executeRaw`
      UPDATE transfers t SET drug_schedule = c.drug_schedule, allergy_alert = c.allergy_alert
        FROM unnest(${ids}::text[], ${schedules}::text[], ${alerts}::text[]) AS c(id, drug_schedule, allergy_alert)
       WHERE t.id = c.id`;
    done += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}
