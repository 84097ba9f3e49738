// A queue row as the screen shows it: the stored row mapped to a QueueItem, with the drug's flags and the
// review checks' counts.
import { DEFAULT_ALERT_SETTINGS, type StoreAlertSettings } from "@/lib/alerts/alert-settings";
import { arrivedAfterHours } from "@/lib/alerts/opening-hours";
import { DEFAULT_STORE_RULES, inZone, type StoreRules, type StoreRulesInZone } from "@/lib/stores/store-rules";
import { reviewDrug, scheduleLabel, countProblems, reviewChecks, reviewCheckOptions } from "@/lib/transfers/review";
import { listedAllergies } from "@/lib/interface";
import type { PatientGroup } from "@/lib/transfers/queue/queue-patient-groups";
import type { Row } from "@/lib/transfers/queue/queue-pages";
import type { QueueStatus } from "@/lib/transfers/queue/queue-query";
import type { TransferRequest } from "@/lib/interface";

export type QueueItem = {
  referenceID: string;
  status: QueueStatus;
  patient: { firstName: string; lastName: string; dateOfBirth: string };
  drug: { name: string; strength: string };
  sender: { partnerId: string; name: string; npi: string };
  receivedAt: string;
  /** Arrived while its store was closed: it alerts from the store's opening. */
  arrivedAfterHours: boolean;
  decidedAt: string | null;
  /** Who decided it (the pharmacist's name on the decision), for decided rows. */
  decidedBy: string | null;
  flags: {
    allergies: string[];
    allergiesDescriptor: string | null;
    /** The drug's schedule as the review screen shows it ("C-IV", with the substance); null when not controlled. */
    schedule: { label: string; substance: string | null } | null;
    /** The drug is in neither the controlled-substance table nor the list of known non-controlled drugs. */
    scheduleUnknown: boolean;
    /** Why approval is refused today (the first rule, drug-review.ts), e.g. a Schedule III-V first fill; else null. */
    approvalBlocked: string | null;
    /** The strongest allergy cross-check warning, with its message. */
    allergyAlert: { severity: "danger" | "caution"; message: string } | null;
    warnings: number;
    failures: number;
  };
  claim: { heldBy: string; heldById: string; claimExpiresAt: string } | null;
  callbackStatus: string | null;
  /**
   * Why the store's immediate-confirmation policy did not confirm this pending transfer at intake, in words;
   * null when it was not judged (policy off then) or the store's policy is off now.
   */
  immediateMiss: string | null;
  /** Place in a run of consecutive pending transfers of the same patient on this page (queue-patient-groups.ts). */
  patientGroup: PatientGroup | null;
};

/**
 * The stored request's allergies and check counts. It was validated against the wire schema when it was
 * received and is never rewritten, so it is read as it is rather than parsed again (re-parsing 50 requests
 * was a visible part of every refresh); a row that is somehow not a request counts as one failure.
 */
function requestFlags(
  request: unknown,
  now: Date,
  rules: StoreRulesInZone,
): Omit<QueueItem["flags"], "allergies" | "allergiesDescriptor"> & {
  allergyDetails: TransferRequest["patient"]["allergyDetails"] | null;
} {
  try {
    const stored = request as TransferRequest;
    const drug = reviewDrug(stored, rules, now);
    const strongest = drug.allergyWarnings.find((w) => w.severity === "danger") ?? drug.allergyWarnings[0];
    return {
      allergyDetails: stored.patient.allergyDetails,
      schedule: drug.schedule ? { label: scheduleLabel(drug.schedule), substance: drug.match.substance } : null,
      scheduleUnknown: drug.match.status === "unknown",
      approvalBlocked: drug.blocks[0]?.title ?? null,
      allergyAlert: strongest ? { severity: strongest.severity, message: strongest.message } : null,
      ...countProblems(reviewChecks(stored, drug, reviewCheckOptions())),
    };
  } catch {
    return {
      allergyDetails: null,
      schedule: null,
      scheduleUnknown: false,
      approvalBlocked: null,
      allergyAlert: null,
      warnings: 0,
      failures: 1,
    };
  }
}

export function toItem(
  row: Row,
  now: Date,
  rules: ReadonlyMap<string, StoreRules>,
  patientGroup: PatientGroup | null,
  alerts: ReadonlyMap<string, StoreAlertSettings>,
  immediateNpis: ReadonlySet<string>,
): QueueItem {
  const alertSettings = alerts.get(row.receiving_npi) ?? DEFAULT_ALERT_SETTINGS;
  const { allergyDetails, ...drugFlags } = requestFlags(
    row.request,
    now,
    inZone(rules.get(row.receiving_npi) ?? DEFAULT_STORE_RULES, alertSettings.timeZone),
  );
  return {
    referenceID: row.id,
    status: row.status,
    patient: {
      firstName: row.patient_first_name,
      lastName: row.patient_last_name,
      dateOfBirth: row.patient_dob.toISOString().slice(0, 10),
    },
    drug: { name: row.drug_name, strength: row.drug_strength },
    sender: { partnerId: row.partner_id, name: row.partner_name, npi: row.sending_npi },
    receivedAt: row.received_at.toISOString(),
    arrivedAfterHours: arrivedAfterHours(row.received_at, alertSettings.openingHours, alertSettings.timeZone),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    flags: {
      allergies: allergyDetails ? [...listedAllergies(allergyDetails)] : [],
      allergiesDescriptor: allergyDetails?.allergiesDescriptor ?? null,
      ...drugFlags,
    },
    claim:
      row.claimed_by_id && row.claim_expires_at
        ? {
            heldBy: row.claimed_by_name ?? "another pharmacist",
            heldById: row.claimed_by_id,
            claimExpiresAt: row.claim_expires_at.toISOString(),
          }
        : null,
    callbackStatus: row.callback_status,
    immediateMiss:
      row.status === "RECEIVED" && row.immediate_miss && immediateNpis.has(row.receiving_npi)
        ? row.immediate_miss
        : null,
    patientGroup,
  };
}
