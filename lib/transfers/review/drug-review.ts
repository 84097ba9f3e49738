// What the drug itself means for a transfer (lib/drugs applied to one request and its store's rules): the
// schedule and how it was found, allergy cross-checks, the legal expiry, the lawful refills, and the rules
// that refuse approval. One function serves the review screen, the queue, the approve dialog and the server's
// decision, so what the screen explains is exactly what the server enforces. Pure: no server-only imports.
// Dates: the written date is the prescriber's calendar date as written (its own offset); "today" and every
// instant the sender sent are read as calendar days in the store's time zone, never UTC's.
import {
  allergyWarnings,
  compareSchedules,
  CONTROLLED_EXPIRY_MONTHS,
  lawfulRefills,
  legalExpiry as legalExpiryOf,
  scheduleLabel,
  scheduleName,
  scheduleOf,
  validMonths,
  type AllergyWarning,
  type Schedule,
  type ScheduleMatch,
} from "@/lib/drugs";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import { calendarDayIn, daysBetweenDates, instantOf, listedAllergies } from "@/lib/interface/client-safe";
import type { ErrorType, TransferRequest } from "@/lib/interface/client-safe";

export { scheduleLabel };

/** A rule that refuses approval: its name (stable, for the API), what it says, and the rejection to send instead. */
export type ApprovalBlock = {
  rule:
    | "schedule-ii"
    | "controlled-first-fill"
    | "controlled-six-months"
    | "controlled-refills"
    | "legal-expiry"
    | "sender-expiry";
  title: string;
  detail: string;
  reject: { errorType: ErrorType; description: string };
};

export type DrugReview = {
  /** What the tables say about the drug. */
  match: ScheduleMatch;
  /** The schedule that applies: the detected one, or the pharmacist's stricter choice. */
  schedule: Schedule | null;
  /** In words, for the record and the audit: "detected: alprazolam, C-IV (federal)" or "set by pharmacist: …". */
  scheduleBasis: string;
  allergyWarnings: AllergyWarning[];
  /** YYYY-MM-DD: the written date plus 6 months (C-III/IV) or the store's validity for other prescriptions. */
  legalExpiry: string;
  legalExpiryBasis: string;
  /** The store's calendar day (YYYY-MM-DD) the rules were judged on, and its time zone. */
  today: string;
  timeZone: string;
  /** The sender's expiration date as the store's calendar day it passes on. */
  senderExpiry: string;
  /**
   * The sender's expiration date as the sender wrote it (YYYY-MM-DD), to compare with the legal expiry, which
   * comes from the written date as the sender wrote it: read on two calendars, a date-time near midnight
   * would put them a day apart.
   */
  senderExpiryAsWritten: string;
  refills: ReturnType<typeof lawfulRefills> | null;
  blocks: ApprovalBlock[];
  /** Schedule III-V: the pharmacist confirms it was not transferred before (1306.25(a)). */
  needsOneTimeConfirmation: boolean;
};

/** The stricter of two schedules (II is stricter than V); null is "not controlled". */
export function stricterSchedule(a: Schedule | null, b: Schedule | null): Schedule | null {
  if (!a) return b;
  if (!b) return a;
  return compareSchedules(a, b) <= 0 ? a : b;
}

export function reviewDrug(
  request: TransferRequest,
  rules: StoreRulesInZone,
  now: Date,
  chosen?: Schedule | null,
): DrugReview {
  const rx = request.prescription;
  const match = scheduleOf(rx, { extraSchedules: rules.extraSchedules });
  const schedule = chosen === undefined ? match.schedule : stricterSchedule(match.schedule, chosen);
  const scheduleBasis = basisOf(match, schedule, chosen);
  const name = match.substance ? capitalize(match.substance) : rx.medicationName;

  const written = rx.writtenDate.slice(0, 10);
  const shortLived = schedule === "III" || schedule === "IV";
  const months = validMonths(schedule, rules.rxExpiryMonths);
  // On calendar dates (the written date as the sender wrote it).
  const legalExpiry = legalExpiryOf({ writtenDate: written, schedule, nonControlledMonths: rules.rxExpiryMonths })
    .toISOString()
    .slice(0, 10);
  const legalExpiryBasis = shortLived
    ? `written ${written} + ${CONTROLLED_EXPIRY_MONTHS} months (${scheduleName(schedule)}, 21 CFR 1306.22)`
    : `written ${written} + ${months} months (this store's rule for ${schedule ? scheduleName(schedule) : "non-controlled"} prescriptions)`;
  const today = calendarDayIn(now, rules.timeZone);
  const lapsed = today > legalExpiry;

  const refills = shortLived
    ? lawfulRefills({
        schedule,
        refillsAuthorized: rx.refillsAuthorized,
        refillsRemaining: rx.refillsRemaining,
        filled: rx.firstFilledDate !== null,
        lapsed,
      })
    : null;

  const blocks: ApprovalBlock[] = [];
  if (schedule === "II") {
    blocks.push({
      rule: "schedule-ii",
      title: "Schedule II cannot be transferred here",
      detail: `${name} is Schedule II. A C-II prescription may be transferred only as the unaltered electronic prescription, for its initial fill, once, over NCPDP SCRIPT 2022011 or later (21 CFR 1306.08(e)-(i)); a re-keyed copy through this service is not that. Reject it, and ask the sender to transfer the electronic prescription or have the prescriber send a new one.`,
      reject: {
        errorType: "OTHER",
        description: `prescription.medicationName: ${name} is a Schedule II controlled substance; a C-II prescription can only be transferred as the unaltered electronic prescription over NCPDP SCRIPT 2022011 or later (21 CFR 1306.08), not through this interface. Please ask the prescriber for a new prescription to this pharmacy.`,
      },
    });
  }
  if (schedule !== null && schedule !== "II" && rx.firstFilledDate === null) {
    const label = scheduleName(schedule);
    blocks.push({
      rule: "controlled-first-fill",
      title: `${label} first fill cannot be transferred here`,
      detail: `${name} is ${label} and this prescription was never filled. A Schedule III–V prescription may be transferred between pharmacies only for refill dispensing (21 CFR 1306.25(a)); its first fill may move only as the unaltered electronic prescription (21 CFR 1306.08(e)-(g)), which a re-keyed copy through this service is not. Reject it, and ask the sender to transfer the electronic prescription or have the prescriber send a new one.`,
      reject: {
        errorType: "OTHER",
        description: `prescription.firstFilledDate: ${name} is a ${label} controlled substance and this prescription was never filled; a Schedule III-V prescription can be transferred only for refill dispensing (21 CFR 1306.25(a)), and its first fill only as the unaltered electronic prescription (21 CFR 1306.08(e)-(g)), not through this interface. Please transfer the electronic prescription or ask the prescriber for a new prescription to this pharmacy.`,
      },
    });
  }
  if (shortLived && lapsed) {
    blocks.push({
      rule: "controlled-six-months",
      title: `${scheduleName(schedule)} prescription older than 6 months`,
      detail: `Written on ${written}, ${daysBetweenDates(written, today)} days ago: a ${scheduleName(schedule)} prescription is void 6 months after it was written (21 CFR 1306.22(a)). It lapsed on ${legalExpiry}.`,
      reject: {
        errorType: "RX_EXPIRED",
        description: `prescription.writtenDate: written ${written}; a ${scheduleName(schedule)} prescription (${name}) expires 6 months after it was written (21 CFR 1306.22), on ${legalExpiry}.`,
      },
    });
  }
  if (refills && refills.lawfulRemaining === 0 && !refills.lapsed) {
    blocks.push({
      rule: "controlled-refills",
      title: "No refill lawfully remains",
      detail: `${refillsSentence(refills)} Nothing is left to transfer (21 CFR 1306.22(a): at most 5 refills after the first fill).`,
      reject: {
        errorType: "INVALID_INFO",
        description: `prescription.refillsRemaining: no refill lawfully remains for this Schedule ${schedule} prescription (${name}): ${refills.used} of the ${refills.lawfulAfterFirst} refills federal law allows after the first fill have been used (21 CFR 1306.22).`,
      },
    });
  }
  if (!shortLived && today > legalExpiry) {
    blocks.push({
      rule: "legal-expiry",
      title: "Legally expired",
      detail: `Valid until ${legalExpiry} (${legalExpiryBasis}); today is ${today}.`,
      reject: {
        errorType: "RX_EXPIRED",
        description: `prescription.writtenDate: written ${written}; prescriptions are valid for ${months} months here, so it expired on ${legalExpiry}.`,
      },
    });
  }
  // The instant the sender gave has passed (as at intake); said as the store's calendar day it passed on.
  const senderExpiry = calendarDayIn(instantOf(rx.expirationDate), rules.timeZone);
  if (instantOf(rx.expirationDate) <= now.getTime()) {
    blocks.push({
      rule: "sender-expiry",
      title: "Expired",
      detail: `The prescription expired on ${senderExpiry}: it cannot be transferred.`,
      reject: {
        errorType: "RX_EXPIRED",
        description: `prescription.expirationDate: the prescription expired on ${senderExpiry}.`,
      },
    });
  }

  return {
    match,
    schedule,
    scheduleBasis,
    allergyWarnings: allergyWarnings(rx.medicationName, listedAllergies(request.patient.allergyDetails)),
    legalExpiry,
    legalExpiryBasis,
    today,
    timeZone: rules.timeZone,
    senderExpiry,
    senderExpiryAsWritten: rx.expirationDate.slice(0, 10),
    refills,
    blocks,
    needsOneTimeConfirmation: schedule !== null && schedule !== "II",
  };
}

/** "11 refills were written after the first fill; federal law allows 5 …": the lawful count in words. */
export function refillsSentence(r: NonNullable<DrugReview["refills"]>): string {
  const written = `${r.writtenAfterFirst} ${r.writtenAfterFirst === 1 ? "refill was" : "refills were"} written after the first fill`;
  const capped = r.capped ? `; federal law allows ${r.lawfulAfterFirst}` : "";
  if (r.firstFillPending)
    return `${written}${capped}; never filled: the first fill and ${r.lawfulAfterFirst} ${r.lawfulAfterFirst === 1 ? "refill" : "refills"} remain.`;
  return `${written}${capped}; ${r.used} used, ${r.lawfulRemaining} lawfully ${r.lawfulRemaining === 1 ? "remains" : "remain"}.`;
}

function basisOf(match: ScheduleMatch, schedule: Schedule | null, chosen: Schedule | null | undefined): string {
  const detected =
    match.status === "controlled" && match.schedule
      ? `detected: ${match.substance}, ${scheduleLabel(match.schedule)} (${match.source ?? "federal"})`
      : match.status === "not-controlled"
        ? `detected: ${match.substance ?? "the drug"}, not controlled`
        : "not found in the controlled-substance table";
  // The pharmacist's choice is said as such where it decided something: a drug the tables do not know, or a
  // stricter schedule than the detected one.
  if (chosen === undefined || (match.status !== "unknown" && schedule === match.schedule)) return detected;
  return `set by pharmacist: ${schedule ? scheduleLabel(schedule) : "not controlled"} (${detected})`;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
