// The review checks of the parties' identifiers: NPI and DEA check digits, a controlled drug with no
// prescriber DEA number, and a prescriber DEA whose letter is not the last name's initial.
import { scheduleLabel, type DrugReview } from "@/lib/transfers/review/drug-review";
import { hasDeaFormat, isValidDea, isValidNpi } from "@/lib/interface/client-safe";
import { drugName } from "@/lib/transfers/review/review-checks-drug";
import type { ReviewCheck } from "@/lib/transfers/review/review-checks";
import type { TransferRequest } from "@/lib/interface/client-safe";

export function npiCheck(request: TransferRequest): ReviewCheck {
  const npis: [string, string][] = [
    ["Prescriber", request.prescriber.npi],
    ["Sending pharmacy", request.sendingPharmacy.npi],
    ["Receiving pharmacy", request.receivingPharmacy.npi],
  ];
  const bad = npis.filter(([, npi]) => !isValidNpi(npi));
  return {
    id: "npi",
    title: "NPI check digits",
    status: bad.length ? "fail" : "pass",
    detail: bad.length
      ? `${bad.map(([who, npi]) => `${who} NPI ${npi}`).join(", ")}: the last digit does not match the NPI check digit (mistyped, or not a real NPI).`
      : `${npis.map(([who, npi]) => `${who} ${npi}`).join("; ")}: each NPI's check digit is right.`,
  };
}

export function deaCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  if (drug.schedule && request.prescriber.dea === null) {
    return {
      id: "dea",
      title: "Prescriber DEA number",
      status: "fail",
      detail: `${drugName(request, drug)} is ${scheduleLabel(drug.schedule)}, but the prescriber sent no DEA number: a controlled-substance prescription must carry the prescriber's DEA registration (21 CFR 1306.05). Get it from the sender before approving.`,
    };
  }
  const deas: [string, string | null][] = [
    ["Prescriber", request.prescriber.dea],
    ["Sending pharmacy", request.sendingPharmacy.dea],
    ["Receiving pharmacy", request.receivingPharmacy.dea],
  ];
  const present = deas.filter((d): d is [string, string] => d[1] !== null);
  if (present.length === 0)
    return { id: "dea", title: "DEA check digits", status: "info", detail: "No DEA numbers were sent." };
  const bad = present.filter(([, dea]) => !isValidDea(dea));
  if (bad.length) {
    return {
      id: "dea",
      title: "DEA check digits",
      status: "fail",
      detail: `${bad.map(([who, dea]) => `${who} DEA ${dea}`).join(", ")}: the check digit does not match.`,
    };
  }
  const initial = prescriberDeaInitialMismatch(request);
  return {
    id: "dea",
    title: "DEA check digits",
    status: initial ? "warn" : "pass",
    detail:
      `${present.map(([who, dea]) => `${who} ${dea}`).join("; ")}: each check digit matches.` +
      (initial ? ` ${initial}` : ""),
  };
}

/** For a practitioner's DEA number the second letter is the initial of the registrant's last name. */
function prescriberDeaInitialMismatch(request: TransferRequest): string | null {
  const dea = request.prescriber.dea;
  if (!dea || !hasDeaFormat(dea) || !"ABFGM".includes(dea[0]!) || dea[1] === "9") return null;
  const initial = request.prescriber.name.lastName.trim()[0]?.toUpperCase();
  if (!initial || initial === dea[1]) return null;
  return `The prescriber DEA's second letter (${dea[1]}) is not the initial of the last name (${initial}): confirm the prescriber.`;
}
