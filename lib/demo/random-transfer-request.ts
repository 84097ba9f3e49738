// randomTransferRequest: many distinct, realistic, valid TransferRequests for the demo seed, the soak and the
// property tests, drawn from the tables in random-transfer-tables.ts. Identifiers are made with the
// check-digit functions, so they pass the semantic checks; phone numbers are in the 555-01xx range and e-mail
// domains are example ones.
import { computeNpiCheckDigit } from "@/lib/interface";
import type { Address, Insurance, Name, Prescriber, TransferRequest } from "@/lib/interface";
import { demoPharmacies, withDeaCheck } from "@/lib/demo/demo-pharmacies";
import { DAY_MS, formatDate, formatDateTime } from "@/lib/demo/fixture-dates";
import {
  ALLERGIES,
  DRUGS,
  FEMALE_FIRST_NAMES,
  LAST_NAMES,
  MALE_FIRST_NAMES,
  MIDDLE_NAMES,
  PLACES,
  PLANS,
  STREETS,
  type Place,
} from "@/lib/demo/random-transfer-tables";
import type { FixtureOptions } from "@/lib/demo/sample-transfers";

/**
 * A random, valid and realistic TransferRequest drawn with `rng` (a function returning [0, 1)). The same
 * rng sequence gives the same request; successive calls give distinct requests (requestID and rxNumber
 * carry 60 and 40 random bits). Dates are relative to `opts.now` (default: the current time).
 */
export function randomTransferRequest(rng: () => number, opts: FixtureOptions = {}): TransferRequest {
  const r = randomTools(rng);
  const now = (opts.now ?? new Date()).getTime();
  const drug = r.pick(DRUGS);
  const senderOffset = r.pick([-300, -360, -420, -480, -240]);

  // Patient
  const gender = r.pick(["F", "M", "F", "M", "U"] as const);
  const patientName: Name = {
    firstName: r.pick(
      gender === "F"
        ? FEMALE_FIRST_NAMES
        : gender === "M"
          ? MALE_FIRST_NAMES
          : [...FEMALE_FIRST_NAMES, ...MALE_FIRST_NAMES],
    ),
    lastName: r.pick(LAST_NAMES),
    middleName: r.chance(0.5) ? r.pick(MIDDLE_NAMES) : null,
    prefix: null,
    suffix: gender === "M" && r.chance(0.08) ? r.pick(["Jr.", "Sr.", "III"]) : null,
  };
  const home = r.pick(PLACES);
  const dateOfBirth = formatDate(Date.UTC(1935 + r.int(0, 70), r.int(0, 11), r.int(1, 28)));
  const allergyCount = r.chance(0.55) ? 0 : r.int(1, 3);
  const allergies = r.sample(ALLERGIES, allergyCount);
  const allergiesDescriptor =
    allergies.length > 0 ? "KNOWN_ALLERGIES_INCLUDED" : r.chance(0.85) ? "NO_KNOWN_ALLERGIES" : "NOT_AVAILABLE";

  // Prescriber
  const prescriberName: Name = {
    firstName: r.pick(r.chance(0.5) ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES),
    lastName: r.pick(LAST_NAMES),
    middleName: null,
    prefix: "Dr.",
    suffix: r.pick(["MD", "DO", "MD", null]),
  };
  const office = r.chance(0.7) ? home : r.pick(PLACES);
  const prescriber: Prescriber = {
    dea: drug.controlled || r.chance(0.8) ? randomDea(r, r.pick(["A", "B", "F", "G"]), prescriberName.lastName) : null,
    npi: randomNpi(r),
    name: prescriberName,
    address: randomAddress(r, office),
    faxNumber: r.chance(0.7) ? phone(r, office) : null,
    email: r.chance(0.5) ? emailOf(prescriberName, "clinic.example.org") : null,
    contactInfo: { countryCode: "+1", phoneNumber: phone(r, office) },
  };

  // Prescription: written recently enough not to be expired, filled zero or more times, refills left.
  const daysSupply = r.pick(drug.daysSupply);
  const quantity =
    "perDay" in drug.dose
      ? drug.dose.perDay * daysSupply
      : drug.dose.perPackage * Math.max(1, daysSupply / drug.dose.packageDays);
  const validityDays = drug.controlled ? 180 : 365;
  const written = now - r.int(3, drug.controlled ? 120 : 300) * DAY_MS - r.int(0, 600) * 60_000;
  const refillsAuthorized = drug.controlled ? r.int(2, 6) : r.int(2, 12);
  // A Schedule III-V prescription may move only for refills (21 CFR 1306.25(a)): filled at least once.
  const isFilled = r.chance(0.75) || drug.controlled;
  const fills = isFilled ? r.int(1, refillsAuthorized - 1) : 0;
  const firstFilled = isFilled ? written + r.int(0, 2 * 24 * 60) * 60_000 : null;
  const lastFilled =
    firstFilled === null
      ? null
      : fills === 1
        ? firstFilled
        : firstFilled + Math.floor(r.next() * (now - 3600_000 - firstFilled));
  const dispenseAlternate = drug.alternateNdc !== null && r.chance(0.2);

  // Insurance
  const primary = r.chance(0.85) ? randomInsurance(r, patientName, "001") : null;
  const secondary = primary !== null && r.chance(0.15) ? randomInsurance(r, patientName, "001") : null;

  const requestId = `req_${r.base36(12)}`;
  return {
    metadata: {
      requestID: requestId,
      patientReferenceID: `pat_${r.digits(9)}`,
      requestTimestamp: formatDateTime(now, 0),
      retryCount: 0,
    },
    patient: {
      name: patientName,
      dateOfBirth,
      gender,
      address: randomAddress(r, home),
      email: r.chance(0.6) ? emailOf(patientName, "example.com") : null,
      contactInfo: r.chance(0.9) ? { countryCode: "+1", phoneNumber: phone(r, home) } : null,
      allergyDetails: { allergiesDescriptor, allergies },
    },
    prescriber,
    prescription: {
      rxNumber: r.digits(12),
      prescribedNDC: drug.ndc,
      dispensedNDC: dispenseAlternate ? drug.alternateNdc : null,
      medicationName: drug.medicationName,
      drugForm: drug.drugForm,
      drugStrength: drug.drugStrength,
      daysSupply,
      dawCode: r.chance(0.85) ? 0 : r.pick([1, 2]),
      icdCode: r.chance(0.7) ? drug.icdCode : null,
      sig: drug.sig,
      faxImageURL: r.chance(0.2) ? `https://fax.mailorder.example.com/images/${r.base36(16)}.pdf` : null,
      quantityWritten: quantity,
      quantityDispensed: quantity,
      refillsAuthorized,
      refillsRemaining: isFilled ? refillsAuthorized - fills : refillsAuthorized - 1,
      writtenDate: formatDateTime(written, senderOffset),
      firstFilledDate: firstFilled === null ? null : formatDateTime(firstFilled, senderOffset),
      lastFilledDate: lastFilled === null ? null : formatDateTime(lastFilled, senderOffset),
      expirationDate: formatDateTime(written + validityDays * DAY_MS, senderOffset),
      canSubstitute: dispenseAlternate || r.chance(0.9),
    },
    ...demoPharmacies(randomPharmacist(r), opts),
    primaryInsurance: primary,
    secondaryInsurance: secondary,
  };
}

function randomPharmacist(r: RandomTools): Name {
  return {
    firstName: r.pick([...FEMALE_FIRST_NAMES, ...MALE_FIRST_NAMES]),
    lastName: r.pick(LAST_NAMES),
    middleName: null,
    prefix: null,
    suffix: "PharmD",
  };
}

function randomInsurance(r: RandomTools, holder: Name, personCode: string): Insurance {
  const plan = r.pick(PLANS);
  return {
    planName: plan.planName,
    cardHolderID: `${r.letters(3)}${r.digits(9)}`,
    cardHolderName: { ...holder, prefix: null },
    groupNumber: r.chance(0.7) ? `GRP${r.digits(5)}` : null,
    bin: plan.bin,
    pcn: plan.pcn,
    personCode: r.chance(0.9) ? personCode : null,
  };
}

function randomAddress(r: RandomTools, place: Place): Address {
  return {
    addressLine1: `${r.int(1, 9899)} ${r.pick(STREETS)}`,
    addressLine2: r.chance(0.25) ? `Apt ${r.int(1, 40)}${r.pick(["", "A", "B", "C"])}` : null,
    city: place.city,
    state: place.state,
    postalCode: r.chance(0.8) ? place.zip : `${place.zip}-${r.digits(4)}`,
    countryCode: "US",
  };
}

/** A fictional number: area code, then the 555-01xx range reserved for fiction. */
function phone(r: RandomTools, place: Place): string {
  return `${place.areaCode}55501${r.digits(2)}`;
}

function emailOf(name: Name, domain: string): string {
  const part = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");
  return `${part(name.firstName)}.${part(name.lastName)}@${domain}`;
}

function randomNpi(r: RandomTools): string {
  const body = `1${r.digits(8)}`;
  return body + String(computeNpiCheckDigit(body));
}

function randomDea(r: RandomTools, registrantType: string, lastName: string): string {
  const initial = lastName[0]?.toUpperCase() ?? "X";
  return `${registrantType}${/[A-Z]/.test(initial) ? initial : "X"}${withDeaCheck(r.digits(6))}`;
}

type RandomTools = ReturnType<typeof randomTools>;

function randomTools(rng: () => number) {
  const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  };
  const fromAlphabet = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join("");
  return {
    next: rng,
    int,
    pick,
    chance: (p: number) => rng() < p,
    digits: (length: number) => fromAlphabet("0123456789", length),
    letters: (length: number) => fromAlphabet("ABCDEFGHJKLMNPQRSTUVWXYZ", length),
    base36: (length: number) => fromAlphabet("0123456789abcdefghijklmnopqrstuvwxyz", length),
    /** `count` distinct items, in random order. */
    sample: <T>(items: readonly T[], count: number): T[] => {
      const pool = [...items];
      const out: T[] = [];
      while (out.length < count && pool.length > 0) out.push(pool.splice(int(0, pool.length - 1), 1)[0] as T);
      return out;
    },
  };
}
