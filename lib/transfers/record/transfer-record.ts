// The receiving pharmacy's legal transfer record (21 CFR 1306.25(b)-(c), 1306.05), as one list of
// labelled elements: the printable record page lays them out, and the inspection export (CSV) writes the
// same elements as columns, so the two can never disagree about what the record holds.
import { normalizeNdc, scheduleName, scheduleOfText } from "@/lib/drugs";
import { lawfulRefillCount } from "@/lib/transfers/record/lawful-refill-count";
import { formatQuantity } from "@/lib/transfers/review";
import { DRUG_SCHEDULE_LABELS, type DrugSchedule } from "@/lib/transfers/decision";
import type { DecisionRecord } from "@/lib/transfers/review";
import { addressLines, formatPhone, fullName, type Address, type TransferRequest } from "@/lib/interface";

export type RecordElement = { key: string; label: string; value: string | null };
export type RecordSection = { title: string; elements: RecordElement[] };

export type RecordStore = { name: string; npi: string; dea: string | null; address: Address | null } | null;

function address(a: Address | null): string | null {
  return a ? addressLines(a).join(", ") : null;
}

function ndc(value: string): string {
  const n = normalizeNdc(value);
  return n.display === value ? n.display : `${n.display} (sent as ${value})`;
}

export function scheduleText(drugSchedule: string | null): string {
  return drugSchedule
    ? (DRUG_SCHEDULE_LABELS[drugSchedule as DrugSchedule] ?? drugSchedule)
    : "Not a controlled substance";
}

/** A rejected transfer has no recorded schedule: say the drug's, as classified at intake (classify-transfer.ts). */
function intakeScheduleText(column: string | null | undefined): string | null {
  if (!column) return null;
  if (column === "unknown") return "Not in the drug tables (at intake)";
  if (column === "none") return "Not a controlled substance (from the drug, at intake)";
  const schedule = scheduleOfText(column);
  return `${schedule ? scheduleName(schedule) : column} (from the drug, at intake)`;
}

export function buildTransferRecord(input: {
  referenceID: string;
  request: TransferRequest;
  decision: DecisionRecord;
  store: RecordStore;
  /** transfers.drug_schedule: shown for a rejection, which records no schedule of its own. */
  intakeSchedule?: string | null;
}): RecordSection[] {
  const { request, decision, store } = input;
  const rx = request.prescription;
  const sending = request.sendingPharmacy;
  const receiving = request.receivingPharmacy;
  const approved = decision.decision === "APPROVED";
  const refillsAfterFirst = rx.refillsAuthorized - 1;
  const fills = rx.firstFilledDate ? 1 + (refillsAfterFirst - rx.refillsRemaining) : 0;
  // The valid refills remaining (1306.25(b)(3)(iv)) under the schedule the decision recorded (the intake's for a
  // rejection): the lawful number, the sender's beside it.
  const refills = lawfulRefillCount(request, scheduleOfText(approved ? decision.drugSchedule : input.intakeSchedule));
  const e = (key: string, label: string, value: string | number | null | undefined): RecordElement => ({
    key,
    label,
    value: value === null || value === undefined || value === "" ? null : String(value),
  });

  return [
    {
      title: "Transfer",
      elements: [
        e("referenceID", "Reference", input.referenceID),
        e(
          "outcome",
          "Outcome",
          approved ? "TRANSFER received (approved)" : `Transfer rejected (${decision.errorType ?? "ERROR"})`,
        ),
        ...(approved ? [] : [e("rejectionDescription", "Reason sent to the sender", decision.description)]),
        e("transferDateTime", "Date and time of transfer", decision.decidedAt),
        e("localRxNumber", "Local Rx number", decision.localRxNumber),
        e(
          "schedule",
          "Drug schedule",
          approved ? scheduleText(decision.drugSchedule) : intakeScheduleText(input.intakeSchedule),
        ),
        e(
          "scheduleBasis",
          "How the schedule was determined",
          decision.scheduleBasis ?? (approved ? "set by pharmacist (recorded before the drug tables)" : null),
        ),
        e(
          "oneTimeTransferConfirmed",
          "One-time transfer (1306.25(a))",
          decision.oneTimeTransferConfirmed === true
            ? "Confirmed by the receiving pharmacist: not transferred before"
            : approved
              ? "Not applicable (not Schedule III–V)"
              : null,
        ),
        e(
          "allergyWarnings",
          "Allergy warnings shown",
          approved
            ? decision.allergyWarnings.length
              ? decision.allergyWarnings.map((w) => w.message).join("; ")
              : "None"
            : null,
        ),
        e("legalExpiry", "Legal expiry", decision.legalExpiry),
        e("note", "Note", decision.note),
      ],
    },
    {
      title: "Receiving pharmacy",
      elements: [
        e("receivingPharmacy", "Pharmacy", store?.name ?? receiving.name),
        e("receivingNpi", "NPI", receiving.npi),
        e("receivingDea", "DEA", store?.dea ?? receiving.dea),
        e("receivingAddress", "Address", address(store?.address ?? receiving.address)),
        e("receivingPharmacist", "Receiving pharmacist", decision.pharmacistName),
        e("receivingPharmacistLicense", "Pharmacist licence number", decision.pharmacistLicense),
      ],
    },
    {
      title: "Transferring pharmacy",
      elements: [
        e("transferringPharmacy", "Pharmacy", sending.name),
        e("transferringAddress", "Address", address(sending.address)),
        e("transferringPhone", "Phone", formatPhone(sending.contactInfo)),
        e("transferringDea", "DEA", sending.dea),
        e("transferringNpi", "NPI", sending.npi),
        e("transferringPharmacist", "Transferring pharmacist", fullName(sending.pharmacist)),
        e("transferringRxNumber", "Prescription (Rx) number", rx.rxNumber),
      ],
    },
    {
      title: "Patient and prescriber",
      elements: [
        e("patientName", "Patient", fullName(request.patient.name)),
        e("patientDateOfBirth", "Date of birth", request.patient.dateOfBirth),
        e("patientAddress", "Patient address", address(request.patient.address)),
        e("prescriberName", "Prescriber", fullName(request.prescriber.name)),
        e("prescriberAddress", "Prescriber address", address(request.prescriber.address)),
        e("prescriberDea", "Prescriber DEA", request.prescriber.dea),
        e("prescriberNpi", "Prescriber NPI", request.prescriber.npi),
      ],
    },
    {
      title: "Prescription",
      elements: [
        e("medication", "Drug", rx.medicationName),
        e("strength", "Strength", rx.drugStrength),
        e("form", "Form", rx.drugForm),
        e("prescribedNdc", "Prescribed NDC", ndc(rx.prescribedNDC)),
        e(
          "dispensedNdc",
          rx.firstFilledDate === null ? "NDC to dispense (never dispensed)" : "Dispensed NDC",
          rx.dispensedNDC && rx.dispensedNDC !== rx.prescribedNDC ? ndc(rx.dispensedNDC) : "same as prescribed",
        ),
        // quantityDispensed is the quantity wanted per fill (the interface's meaning), not a record of a dispensing.
        e(
          "quantity",
          "Quantity",
          `${formatQuantity(rx.quantityWritten, rx.drugForm)} written; ${formatQuantity(rx.quantityDispensed, rx.drugForm)} per fill; ${rx.daysSupply} days supply`,
        ),
        e("directions", "Directions", rx.sig),
        e("writtenDate", "Date of original issue", rx.writtenDate.slice(0, 10)),
        e(
          "refillsAfterFirstFill",
          "Original refills authorized (after the first fill, as DEA counts)",
          refillsAfterFirst,
        ),
        e("totalFillsAuthorized", "Total fills authorized (including the first)", rx.refillsAuthorized),
        e("firstFilledDate", "Date of original dispensing", rx.firstFilledDate?.slice(0, 10) ?? "never dispensed"),
        e("refillsRemaining", "Valid refills remaining (lawful number)", refills.refillsRemaining),
        e(
          "senderRefillsRemaining",
          "Refills remaining as sent by the transferring pharmacy",
          refills.senderRefillsRemaining === refills.refillsRemaining
            ? `${refills.senderRefillsRemaining} (the same)`
            : `${refills.senderRefillsRemaining} (more than federal law allows: not valid)`,
        ),
        e(
          "earlierFills",
          "Earlier fills (dates and place)",
          fills > 0
            ? `${fills} fill${fills === 1 ? "" : "s"} at ${sending.name}: first ${rx.firstFilledDate!.slice(0, 10)}, last ${(rx.lastFilledDate ?? rx.firstFilledDate!).slice(0, 10)}`
            : "none",
        ),
        e("senderExpirationDate", "Expiration date (sender)", rx.expirationDate.slice(0, 10)),
      ],
    },
  ];
}
