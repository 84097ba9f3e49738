// The review screen's patient history at the queue part's sizes: getPatientHistory for an ordinary patient
// beside one holding a tenth of the table, and its rows statement beside the previous shape (one OR of both
// match rules under ORDER BY … LIMIT), measured in turn on the same table.
import { Prisma } from "@/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DUPLICATE_THERAPY_DAYS, getPatientHistory, HISTORY_LIMIT, historyRows } from "@/lib/transfers/review";
import { explain, type QueryCapture } from "./query-plans";
import { queueCase, timeIt, type QueueCase } from "./queue-case";
import { SKEWED_PATIENT_REFERENCE } from "./seed-transfers";
import { progress } from "./support";

type HistoryKeys = {
  id: string;
  partner_id: string;
  patient_name_key: string;
  patient_dob: string;
  patient_reference_id: string | null;
};

/**
 * The review screen's patient history, for the oldest pending transfer of a bench patient (5 transfers share
 * each bench patient id) beside the patient with SKEWED_PATIENT_SHARE of the table, and for that patient's own
 * oldest pending transfer: getPatientHistory as the screen calls it (with its audit row), then its rows
 * statement alone beside the previous shape's (one OR of both rules under the ORDER BY … LIMIT), in the same
 * run on the same table. Baseline: the bare index reads of the same matches (at most 51 per rule, unordered).
 */
export async function benchHistory(
  opts: { databaseUrl: string; actor: SessionUser; runs: number },
  capture: QueryCapture,
): Promise<QueueCase[]> {
  const target = async (where: Prisma.Sql) => {
    const [row] = await db().$queryRaw<HistoryKeys[]>`
      SELECT id, partner_id, patient_name_key, patient_dob::text AS patient_dob, patient_reference_id FROM transfers
       WHERE status = 'RECEIVED' AND ${where} ORDER BY received_at, id LIMIT 1`;
    if (!row) throw new Error("bench: no pending transfer for the history case");
    return row;
  };
  const common = await target(Prisma.sql`patient_reference_id <> ${SKEWED_PATIENT_REFERENCE}`);
  const skewed = await target(Prisma.sql`patient_reference_id = ${SKEWED_PATIENT_REFERENCE}`);
  const skewCount = (
    await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM transfers WHERE patient_reference_id = ${SKEWED_PATIENT_REFERENCE}`
  )[0]!.n;
  const floor = (t: HistoryKeys) => () => db().$queryRaw`
    (SELECT id FROM transfers WHERE patient_name_key = ${t.patient_name_key} AND patient_dob = ${t.patient_dob}::date LIMIT 51)
    UNION ALL
    (SELECT id FROM transfers WHERE partner_id = ${t.partner_id} AND patient_reference_id = ${t.patient_reference_id} LIMIT 51)`;
  const ours = (t: HistoryKeys) => () =>
    getPatientHistory({ referenceID: t.id, actor: opts.actor, clientAddress: "127.0.0.1" });
  // The rows statement alone, in each shape: what the two shapes differ in, without the target's read and
  // the audit row that getPatientHistory adds to both.
  const statement = (t: HistoryKeys) => {
    const sql = historyRows(t, { limit: HISTORY_LIMIT + 1, duplicateTherapyDays: DUPLICATE_THERAPY_DAYS })!;
    return () => sql.execute();
  };
  const previous = (t: HistoryKeys) => () => db().$queryRaw(previousHistoryShape(t.id));
  const many = skewCount.toLocaleString();
  const cases: { name: string; run: () => Promise<unknown>; floor: () => Promise<unknown> }[] = [
    {
      name: `patient history (getPatientHistory: target, rows, audit row), beside a patient with ${many}`,
      run: ours(common),
      floor: floor(common),
    },
    { name: "  its rows statement (each rule's index, limited, UNION)", run: statement(common), floor: floor(common) },
    { name: "  the previous rows statement (one OR of both rules)", run: previous(common), floor: floor(common) },
    {
      name: `patient history (getPatientHistory) of the patient with ${many} transfers`,
      run: ours(skewed),
      floor: floor(skewed),
    },
    { name: "  its rows statement (each rule's index, limited, UNION)", run: statement(skewed), floor: floor(skewed) },
    { name: "  the previous rows statement (one OR of both rules)", run: previous(skewed), floor: floor(skewed) },
  ];
  const plans: string[][] = [];
  for (const c of cases) {
    await timeIt(3, c.run);
    await timeIt(3, c.floor);
    capture.take();
    await c.run();
    const historyQuery = capture.take().find((q) => q.query.includes("WITH cur"));
    plans.push(historyQuery ? await explain(opts.databaseUrl, historyQuery) : []);
  }
  // Round robin, a sample of each case in turn: the shapes compared see the same moments of a busy machine.
  const done = progress(`queue: patient history, ${cases.length} cases in turn`, 1);
  const ms = cases.map((): number[] => []);
  const base = cases.map((): number[] => []);
  for (let i = 0; i < opts.runs; i++) {
    for (const [k, c] of cases.entries()) ms[k]!.push(...(await timeIt(1, c.run)));
    for (const [k, c] of cases.entries()) base[k]!.push(...(await timeIt(1, c.floor)));
  }
  done();
  return cases.map((c, k) => queueCase(c.name, ms[k]!, base[k]!, plans[k]!));
}

/**
 * The patient history's rows as one OR of both match rules under ORDER BY … LIMIT (what getPatientHistory
 * sent before lib/transfers/patient-history-sql.ts), kept here to measure against in the same run.
 */
function previousHistoryShape(referenceID: string): Prisma.Sql {
  return Prisma.sql`
    WITH cur AS (
      SELECT id, partner_id, patient_name_key, patient_dob, patient_reference_id, drug_substance_key, received_at
        FROM transfers WHERE id = ${referenceID})
    SELECT h.id, h.status::text AS status, h.drug_name, h.drug_strength, h.received_at, h.decided_at,
           d.pharmacist_name AS decided_by, d.error_type, p.name AS sender,
           (h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob) AS by_name,
           (h.partner_id = cur.partner_id AND h.patient_reference_id = cur.patient_reference_id) AS by_patient_id,
           (h.patient_dob <> cur.patient_dob) AS dob_differs,
           (h.status IN ('RECEIVED', 'CONFIRMED') AND h.drug_substance_key <> '' AND h.drug_substance_key = cur.drug_substance_key
             AND h.received_at BETWEEN cur.received_at - make_interval(days => ${DUPLICATE_THERAPY_DAYS})
                                   AND cur.received_at + make_interval(days => ${DUPLICATE_THERAPY_DAYS})) AS duplicate,
           ((h.received_at, h.id) > (cur.received_at, cur.id)) AS after_current
      FROM cur
      JOIN transfers h ON h.id <> cur.id
       AND ((cur.patient_name_key <> '|' AND h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob)
         OR (h.partner_id = cur.partner_id AND h.patient_reference_id = cur.patient_reference_id))
      JOIN partners p ON p.id = h.partner_id
      LEFT JOIN transfer_decisions d ON d.transfer_id = h.id
     ORDER BY h.received_at DESC, h.id DESC
     LIMIT ${HISTORY_LIMIT + 1}`;
}
