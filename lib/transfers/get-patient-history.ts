// The patient's history on the review screen: earlier (and later) transfers for the same person, how each was
// matched, the duplicate-therapy warning, and the next pending transfer of the same patient.
//
// Matching (issue 17), on indexed columns only (migration 20261124130000_patient_history; no read of any
// request JSON):
//   - "name-dob": the same normalised last + first name (patient_name_key) AND the same date of birth. A
//     name match with another date of birth is not a match.
//   - "patient-id": the same sender (partner) and the same sender's patientReferenceID: a strong match,
//     shown even where the name was spelt differently. Another sender's id means nothing here.
// Duplicate therapy: another PENDING or APPROVED transfer of the matched patient whose drug has the same
// substance key (lib/drugs substanceKeyOf: brand and generic, any strength or form), received within
// DUPLICATE_THERAPY_DAYS of this one, either side.
// Reading it shows other transfers' patient data, so it is audited like a view (`transfer.history_viewed`).
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";

export const DUPLICATE_THERAPY_DAYS = 90;
/** The most history rows listed (newest first); the panel says when there are more. */
export const HISTORY_LIMIT = 50;

export type HistoryMatchKind = "name-dob" | "patient-id";
export type HistoryOutcome = "pending" | "approved" | "rejected";

export type HistoryEntry = {
  referenceID: string;
  outcome: HistoryOutcome;
  drug: { name: string; strength: string };
  receivedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  /** For a rejection, the error type sent to the sender (e.g. RX_EXPIRED). */
  errorType: string | null;
  sender: string;
  matchedBy: HistoryMatchKind[];
  /** Same patient's date of birth differs (possible only on a patient-id match). */
  dobDiffers: boolean;
  duplicateTherapy: boolean;
};

export type PatientHistory = {
  referenceID: string;
  entries: HistoryEntry[];
  hasMore: boolean;
  duplicateTherapyDays: number;
  /** The next pending transfer of this patient in queue order (oldest first, wrapping round), if any. */
  nextForPatient: { referenceID: string; drug: { name: string; strength: string }; pendingCount: number } | null;
};

export type GetPatientHistoryOptions = { referenceID: string; actor: SessionUser; clientAddress: string | null };

type Row = {
  id: string;
  status: "RECEIVED" | "CONFIRMED" | "REJECTED";
  drug_name: string;
  drug_strength: string;
  received_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  error_type: string | null;
  sender: string;
  by_name: boolean;
  by_patient_id: boolean;
  dob_differs: boolean;
  duplicate: boolean;
  after_current: boolean;
};

export async function getPatientHistory(opts: GetPatientHistoryOptions): Promise<PatientHistory> {
  const { referenceID } = opts;
  if (referenceID.length > 64) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  const exists = await db().$queryRaw<{ id: string }[]>`SELECT id FROM transfers WHERE id = ${referenceID}`;
  if (exists.length === 0) throw new DomainError("not_found", `No transfer ${referenceID}.`);

  // The two match rules are an OR of two index reads (a BitmapOr over transfers_patient_name_key_patient_dob_idx
  // and transfers_partner_id_patient_reference_id_idx). A name that normalises to nothing ("|") matches no one.
  const rows = await db().$queryRaw<Row[]>`
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

  const listed = rows.slice(0, HISTORY_LIMIT);
  const entries = listed.map(toEntry);
  // Queue order is oldest first: the next one is the first pending after this transfer, else the oldest pending.
  const pending = rows
    .filter((r) => r.status === "RECEIVED")
    .sort((a, b) => a.received_at.getTime() - b.received_at.getTime() || (a.id < b.id ? -1 : 1));
  const next = pending.find((r) => r.after_current) ?? pending[0];

  await recordAuditEvent({
    userId: opts.actor.id,
    actor: opts.actor.email,
    action: "transfer.history_viewed",
    transferId: referenceID,
    clientAddress: opts.clientAddress,
    details: { referenceIDs: entries.map((e) => e.referenceID) },
  });

  return {
    referenceID,
    entries,
    hasMore: rows.length > HISTORY_LIMIT,
    duplicateTherapyDays: DUPLICATE_THERAPY_DAYS,
    nextForPatient: next
      ? {
          referenceID: next.id,
          drug: { name: next.drug_name, strength: next.drug_strength },
          pendingCount: pending.length,
        }
      : null,
  };
}

function toEntry(r: Row): HistoryEntry {
  const matchedBy: HistoryMatchKind[] = [];
  if (r.by_patient_id) matchedBy.push("patient-id");
  if (r.by_name) matchedBy.push("name-dob");
  return {
    referenceID: r.id,
    outcome: r.status === "RECEIVED" ? "pending" : r.status === "CONFIRMED" ? "approved" : "rejected",
    drug: { name: r.drug_name, strength: r.drug_strength },
    receivedAt: r.received_at.toISOString(),
    decidedAt: r.decided_at?.toISOString() ?? null,
    decidedBy: r.decided_by,
    errorType: r.error_type,
    sender: r.sender,
    matchedBy,
    dobDiffers: r.dob_differs,
    duplicateTherapy: r.duplicate,
  };
}
