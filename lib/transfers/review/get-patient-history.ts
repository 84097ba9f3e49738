// The patient's history on the review screen: earlier (and later) transfers for the same person, how each was
// matched, the duplicate-therapy warning, and the next pending transfer of the same patient.
//
// Matching, on indexed columns only (migration 20261124130000_patient_history; no read of any request JSON;
// the SQL and its plan: queries/patient-history.ts):
//   - "name-dob": the same normalised last + first name (patient_name_key) AND the same date of birth. A
//     name match with another date of birth is not a match.
//   - "patient-id": the same sender (partner) and the same sender's patientReferenceID: a strong match,
//     shown even where the name was spelt differently. Another sender's id means nothing here.
// Duplicate therapy: another PENDING or APPROVED transfer of the matched patient whose drug has the same
// substance key (lib/drugs substanceKeyOf: brand and generic, any strength or form), received within
// DUPLICATE_THERAPY_DAYS of this one, either side.
// Reading it shows other transfers' patient data, so it is audited like a view (`transfer.history_viewed`).
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { findHistoryTarget, historyRows, type HistoryRow } from "@/lib/transfers/queries/patient-history";

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

export async function getPatientHistory(opts: GetPatientHistoryOptions): Promise<PatientHistory> {
  const { referenceID } = opts;
  if (referenceID.length > 64) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  const target = await findHistoryTarget(referenceID);
  if (!target) throw new DomainError("not_found", `No transfer ${referenceID}.`);

  // One more than shown, to know whether there are more (queries/patient-history.ts says how the plan stays bounded).
  const statement = historyRows(target, { limit: HISTORY_LIMIT + 1, duplicateTherapyDays: DUPLICATE_THERAPY_DAYS });
  const rows = statement ? await statement.execute() : [];

  const listed = rows.slice(0, HISTORY_LIMIT);
  const entries = listed.map(toEntry);
  // Queue order is oldest first: the next one is the first pending after this transfer, else the oldest pending.
  const pending = rows
    .filter((r) => r.status === "RECEIVED")
    .sort((a, b) => a.received_at.getTime() - b.received_at.getTime() || (a.id < b.id ? -1 : 1));
  const next = pending.find((r) => r.after_current) ?? pending[0];

  await recordAuditEvent({
    actor: userActor(opts.actor, opts.clientAddress),
    action: "transfer.history_viewed",
    transferId: referenceID,
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

function toEntry(r: HistoryRow): HistoryEntry {
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
