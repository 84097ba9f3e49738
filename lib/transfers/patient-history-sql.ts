// The patient history's SQL (get-patient-history.ts says what it matches and why), shaped so that its plan
// does not depend on the data's statistics.
//
// An OR of the two match rules under ORDER BY received_at DESC, id DESC LIMIT lets the planner choose between
// reading the matches and sorting them, or walking transfers_received_at_id_idx backwards until the LIMIT fills.
// When a few patients are very common (a chronic patient with hundreds of fills, a sender reusing one patient
// id) the statistics overestimate everyone's matches, the walk looks cheap, and a patient with a handful of
// transfers reads the whole table. So each rule is its own branch, answered by its own index in the order
// wanted — (patient_name_key, patient_dob, received_at, id) and (partner_id, patient_reference_id,
// received_at, id), read backwards — and cut at the limit before the UNION merges them: at most 2 × limit
// index entries, whoever the patient is and however common anyone else is. Every row of the top `limit` of the
// OR is in the top `limit` of a rule it matches, so the result is the same rows in the same order.
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";

/** The transfer whose history is asked for: its match keys, as the first statement reads them. */
export type HistoryTarget = {
  id: string;
  partner_id: string;
  patient_name_key: string;
  /** YYYY-MM-DD */
  patient_dob: string;
  patient_reference_id: string | null;
};

export async function findHistoryTarget(referenceID: string): Promise<HistoryTarget | null> {
  const rows = await db().$queryRaw<HistoryTarget[]>`
    SELECT id, partner_id, patient_name_key, patient_dob::text AS patient_dob, patient_reference_id
      FROM transfers WHERE id = ${referenceID}`;
  return rows[0] ?? null;
}

/**
 * The ids of the target's other transfers by either rule, newest first, at most `limit` per rule (a
 * name that normalises to nothing, "|", matches no one; neither does a missing patient id). Null when
 * neither rule can match.
 */
export function historyMatchesSql(target: HistoryTarget, limit: number): Prisma.Sql | null {
  const branches: Prisma.Sql[] = [];
  if (target.patient_name_key !== "|") {
    branches.push(Prisma.sql`(SELECT id FROM transfers
        WHERE patient_name_key = ${target.patient_name_key} AND patient_dob = ${target.patient_dob}::date
          AND id <> ${target.id}
        ORDER BY received_at DESC, id DESC LIMIT ${limit})`);
  }
  if (target.patient_reference_id !== null) {
    branches.push(Prisma.sql`(SELECT id FROM transfers
        WHERE partner_id = ${target.partner_id} AND patient_reference_id = ${target.patient_reference_id}
          AND id <> ${target.id}
        ORDER BY received_at DESC, id DESC LIMIT ${limit})`);
  }
  return branches.length > 0 ? Prisma.join(branches, " UNION ") : null;
}

/**
 * The history's rows (newest first, at most `limit`): the matches joined to what the panel shows, with how
 * each matched, whether its date of birth differs, duplicate therapy, and whether it comes after the target in
 * queue order. Null when neither rule can match.
 */
export function historyRowsSql(
  target: HistoryTarget,
  opts: { limit: number; duplicateTherapyDays: number },
): Prisma.Sql | null {
  const matches = historyMatchesSql(target, opts.limit);
  if (!matches) return null;
  return Prisma.sql`
    WITH cur AS (
      SELECT id, partner_id, patient_name_key, patient_dob, patient_reference_id, drug_substance_key, received_at
        FROM transfers WHERE id = ${target.id}),
    matched AS (${matches})
    SELECT h.id, h.status::text AS status, h.drug_name, h.drug_strength, h.received_at, h.decided_at,
           d.pharmacist_name AS decided_by, d.error_type, p.name AS sender,
           (h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob) AS by_name,
           (h.partner_id = cur.partner_id AND h.patient_reference_id = cur.patient_reference_id) AS by_patient_id,
           (h.patient_dob <> cur.patient_dob) AS dob_differs,
           (h.status IN ('RECEIVED', 'CONFIRMED') AND h.drug_substance_key <> '' AND h.drug_substance_key = cur.drug_substance_key
             AND h.received_at BETWEEN cur.received_at - make_interval(days => ${opts.duplicateTherapyDays})
                                   AND cur.received_at + make_interval(days => ${opts.duplicateTherapyDays})) AS duplicate,
           ((h.received_at, h.id) > (cur.received_at, cur.id)) AS after_current
      FROM matched m
      JOIN transfers h ON h.id = m.id
      CROSS JOIN cur
      JOIN partners p ON p.id = h.partner_id
      LEFT JOIN transfer_decisions d ON d.transfer_id = h.id
     ORDER BY h.received_at DESC, h.id DESC
     LIMIT ${opts.limit}`;
}
