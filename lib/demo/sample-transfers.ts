// Valid, realistic TransferRequests for tests, demo seed data and benchmarks. Typed from wire.ts, so a
// change of the wire format breaks the fixtures at compile time; the tests also run them through the
// validator. Identifiers are made with the check-digit functions, so they pass the semantic checks.
//
// Names, addresses, phone numbers (555-01xx), e-mail domains (example.com) and identifiers are invented.
// The medication table uses real drug names, strengths and forms; its NDCs are written in the 11-digit
// billing form and are illustrative, not for dispensing.
import { computeDeaCheckDigit, computeNpiCheckDigit } from "@/lib/interface";
import type { Address, Insurance, Name, Pharmacy, Prescriber, TransferRequest } from "@/lib/interface";

/** Receiving store of the demo (the default PHARMACY_NPI of lib/env.ts). A valid NPI. */
export const DEMO_PHARMACY_NPI = "1245319599";
export const DEMO_PHARMACY_NAME = "Riverside Community Pharmacy";
/** The demo sending pharmacy (a mail-order pharmacy). A valid NPI. */
export const DEMO_SENDING_NPI = "1843501234";
export const DEMO_SENDING_NAME = "Demo Mail-Order Pharmacy";

export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
export type TransferRequestOverrides = DeepPartial<TransferRequest>;
export type FixtureOptions = { receivingNpi?: string; sendingNpi?: string; now?: Date };

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------------
// buildTransferRequest: one fixed, valid request

/**
 * A valid TransferRequest. Dates are relative to `opts.now` (default: the current time), so the
 * prescription is never expired. `overrides` are merged deeply: objects merge key by key; arrays,
 * scalars and null replace. Giving an object for `secondaryInsurance` (null in the base) merges it
 * into a complete secondary plan.
 */
export function buildTransferRequest(
  overrides: TransferRequestOverrides = {},
  opts: FixtureOptions = {},
): TransferRequest {
  const now = (opts.now ?? new Date()).getTime();
  const written = now - 40 * DAY_MS;
  const base: TransferRequest = {
    metadata: {
      requestID: "req_fixture_000001",
      patientReferenceID: "", // set from the patient below
      requestTimestamp: formatDateTime(now, 0),
      retryCount: 0,
    },
    patient: {
      name: { firstName: "Maria", lastName: "Alvarez", middleName: "Luisa", prefix: null, suffix: null },
      dateOfBirth: "1958-03-14",
      gender: "F",
      address: {
        addressLine1: "418 Green Street",
        addressLine2: "Apt 3B",
        city: "Philadelphia",
        state: "PA",
        postalCode: "19123",
        countryCode: "US",
      },
      email: "maria.alvarez@example.com",
      contactInfo: { countryCode: "+1", phoneNumber: "2155550143" },
      allergyDetails: { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin", "Sulfa drugs"] },
    },
    prescriber: {
      dea: "AC" + withDeaCheck("123456"),
      npi: "1234567893",
      name: { firstName: "Daniel", lastName: "Chen", middleName: null, prefix: "Dr.", suffix: "MD" },
      address: {
        addressLine1: "1100 Walnut Street",
        addressLine2: "Suite 600",
        city: "Philadelphia",
        state: "PA",
        postalCode: "19107-5563",
        countryCode: "US",
      },
      faxNumber: "2155550199",
      email: "dr.chen@example.com",
      contactInfo: { countryCode: "+1", phoneNumber: "2155550180" },
    },
    prescription: {
      rxNumber: "7042118",
      prescribedNDC: "00071015623",
      dispensedNDC: null,
      medicationName: "Atorvastatin Calcium",
      drugForm: "Tablet",
      drugStrength: "20 mg",
      daysSupply: 30,
      dawCode: 0,
      icdCode: "E78.5",
      sig: "Take 1 tablet by mouth once daily in the evening",
      faxImageURL: null,
      quantityWritten: 30,
      quantityDispensed: 30,
      refillsAuthorized: 6,
      refillsRemaining: 4,
      writtenDate: formatDateTime(written, -300),
      firstFilledDate: formatDateTime(written + 1 * DAY_MS, -300),
      lastFilledDate: formatDateTime(written + 31 * DAY_MS, -300),
      expirationDate: formatDateTime(written + 365 * DAY_MS, -300),
      canSubstitute: true,
    },
    sendingPharmacy: demoSendingPharmacy(
      { firstName: "Priya", lastName: "Raman", middleName: null, prefix: null, suffix: "PharmD" },
      opts.sendingNpi ?? DEMO_SENDING_NPI,
    ),
    receivingPharmacy: demoReceivingPharmacy(opts.receivingNpi ?? DEMO_PHARMACY_NPI),
    primaryInsurance: {
      planName: "Keystone Health PPO",
      cardHolderID: "KHP448120937",
      cardHolderName: { firstName: "Maria", lastName: "Alvarez", middleName: "Luisa", prefix: null, suffix: null },
      groupNumber: "GRP20931",
      bin: "610014",
      pcn: "ADV",
      personCode: "001",
    },
    secondaryInsurance: null,
  };

  if (isPlainObject(overrides.secondaryInsurance)) base.secondaryInsurance = defaultSecondaryInsurance();
  if (isPlainObject(overrides.primaryInsurance) && base.primaryInsurance === null) {
    base.primaryInsurance = defaultSecondaryInsurance();
  }
  const request = deepMerge(base, overrides) as TransferRequest;
  // The sender's patient id follows the patient, unless given: two tests that name different patients must
  // not share one id, or the patient history (which matches by that id) would join them into one person.
  if (overrides.metadata?.patientReferenceID === undefined)
    request.metadata.patientReferenceID = patientIdOf(request.patient);
  return request;
}

/** A stable sender's patient id for a patient: the same name and date of birth give the same id. */
function patientIdOf(patient: TransferRequest["patient"]): string {
  const key = `${patient.name.lastName}|${patient.name.firstName}|${patient.dateOfBirth}`.toLowerCase();
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return `pat_${hash.toString(36).padStart(7, "0")}`;
}

function defaultSecondaryInsurance(): Insurance {
  return {
    planName: "Medicare Part D Standard",
    cardHolderID: "1EG4TE5MK73",
    cardHolderName: { firstName: "Maria", lastName: "Alvarez", middleName: null, prefix: null, suffix: null },
    groupNumber: null,
    bin: "004336",
    pcn: "MEDDADV",
    personCode: "001",
  };
}

function deepMerge(base: unknown, override: unknown): unknown {
  if (override === undefined) return base;
  if (!isPlainObject(override) || !isPlainObject(base)) return structuredClone(override);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value !== undefined) out[key] = deepMerge(base[key], value);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------
// randomTransferRequest: many distinct, realistic, valid requests

type Drug = {
  medicationName: string;
  drugForm: string;
  drugStrength: string;
  ndc: string;
  /** Another manufacturer's equivalent, used as dispensedNDC now and then. */
  alternateNdc: string | null;
  sig: string;
  /** Units per day; or, for packages (inhalers, tubes), the package quantity and the days it lasts. */
  dose: { perDay: number } | { perPackage: number; packageDays: number };
  icdCode: string;
  /** Schedule III-V: expires 6 months after writing, at most 5 refills after the first fill. */
  controlled: boolean;
  daysSupply: readonly number[];
};

const DRUGS: readonly Drug[] = [
  {
    medicationName: "Atorvastatin Calcium",
    drugForm: "Tablet",
    drugStrength: "20 mg",
    ndc: "00071015623",
    alternateNdc: "60505257909",
    sig: "Take 1 tablet by mouth once daily in the evening",
    dose: { perDay: 1 },
    icdCode: "E78.5",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Lisinopril",
    drugForm: "Tablet",
    drugStrength: "10 mg",
    ndc: "68180051301",
    alternateNdc: "00093111101",
    sig: "Take 1 tablet by mouth once daily",
    dose: { perDay: 1 },
    icdCode: "I10",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Metformin Hydrochloride",
    drugForm: "Tablet",
    drugStrength: "500 mg",
    ndc: "00093104801",
    alternateNdc: "65162017510",
    sig: "Take 1 tablet by mouth twice daily with meals",
    dose: { perDay: 2 },
    icdCode: "E11.9",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Levothyroxine Sodium",
    drugForm: "Tablet",
    drugStrength: "50 mcg",
    ndc: "00074455190",
    alternateNdc: null,
    sig: "Take 1 tablet by mouth every morning on an empty stomach, 30 minutes before breakfast",
    dose: { perDay: 1 },
    icdCode: "E03.9",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Amlodipine Besylate",
    drugForm: "Tablet",
    drugStrength: "5 mg",
    ndc: "00069152630",
    alternateNdc: "33342000810",
    sig: "Take 1 tablet by mouth once daily",
    dose: { perDay: 1 },
    icdCode: "I10",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Sertraline Hydrochloride",
    drugForm: "Tablet",
    drugStrength: "50 mg",
    ndc: "00049496066",
    alternateNdc: "16729000301",
    sig: "Take 1 tablet by mouth once daily",
    dose: { perDay: 1 },
    icdCode: "F32.9",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Omeprazole",
    drugForm: "Delayed-release capsule",
    drugStrength: "20 mg",
    ndc: "62175011837",
    alternateNdc: null,
    sig: "Take 1 capsule by mouth once daily before breakfast",
    dose: { perDay: 1 },
    icdCode: "K21.9",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Albuterol Sulfate HFA",
    drugForm: "Inhalation aerosol",
    drugStrength: "90 mcg/actuation",
    ndc: "00173068220",
    alternateNdc: null,
    sig: "Inhale 2 puffs by mouth every 4 to 6 hours as needed for wheezing or shortness of breath",
    dose: { perPackage: 18, packageDays: 30 },
    icdCode: "J45.909",
    controlled: false,
    daysSupply: [30],
  },
  {
    medicationName: "Fluticasone Propionate",
    drugForm: "Nasal spray, suspension",
    drugStrength: "50 mcg/spray",
    ndc: "60505082901",
    alternateNdc: null,
    sig: "Use 2 sprays in each nostril once daily",
    dose: { perPackage: 16, packageDays: 30 },
    icdCode: "J30.9",
    controlled: false,
    daysSupply: [30],
  },
  {
    medicationName: "Triamcinolone Acetonide",
    drugForm: "Cream",
    drugStrength: "0.1%",
    ndc: "00168000480",
    alternateNdc: null,
    sig: "Apply a thin layer to the affected area twice daily",
    dose: { perPackage: 80, packageDays: 30 },
    icdCode: "L30.9",
    controlled: false,
    daysSupply: [30],
  },
  {
    medicationName: "Gabapentin",
    drugForm: "Capsule",
    drugStrength: "300 mg",
    ndc: "00228263650",
    alternateNdc: "59762502701",
    sig: "Take 1 capsule by mouth three times daily",
    dose: { perDay: 3 },
    icdCode: "M54.17",
    controlled: false,
    daysSupply: [30, 90],
  },
  {
    medicationName: "Tramadol Hydrochloride",
    drugForm: "Tablet",
    drugStrength: "50 mg",
    ndc: "00093005801",
    alternateNdc: null,
    sig: "Take 1 tablet by mouth every 6 hours as needed for pain; do not exceed 4 tablets per day",
    dose: { perDay: 4 },
    icdCode: "G89.29",
    controlled: true,
    daysSupply: [7, 14, 30],
  },
  {
    medicationName: "Zolpidem Tartrate",
    drugForm: "Tablet",
    drugStrength: "10 mg",
    ndc: "00024542131",
    alternateNdc: "13668000830",
    sig: "Take 1 tablet by mouth at bedtime as needed for sleep",
    dose: { perDay: 1 },
    icdCode: "G47.00",
    controlled: true,
    daysSupply: [30],
  },
];

// prettier-ignore
const FEMALE_FIRST_NAMES = [
  "Maria", "Linda", "Aisha", "Mei", "Sofia", "Grace", "Hannah", "Fatima", "Olivia", "Rosa", "Keisha",
  "Ingrid", "Priya", "Naomi", "Carmen", "Yuki", "Abigail", "Chloe",
];
// prettier-ignore
const MALE_FIRST_NAMES = [
  "James", "Robert", "Jamal", "Wei", "Luis", "Ethan", "Omar", "David", "Kwame", "Mateo", "Samuel", "Hiroshi",
  "Ivan", "Andre", "Thomas", "Rahul", "Liam", "Noah",
];
// prettier-ignore
const MIDDLE_NAMES = [
  "Ann", "Marie", "Lee", "James", "Rose", "Elizabeth", "Michael", "Jo", "Alan", "Grace",
];
// prettier-ignore
const LAST_NAMES = [
  "Johnson", "Nguyen", "Okafor", "Garcia", "Kowalski", "Patel", "O'Brien", "Smith-Jones", "Kim", "Haddad",
  "Rossi", "Washington", "Lindqvist", "Tanaka", "Mensah", "Hernandez", "Cohen", "MacLeod", "Novak", "Dubois",
  "Begay", "Ivanova", "Fernandes", "Yamamoto",
];
// prettier-ignore
const STREETS = [
  "Maple Avenue", "Oak Street", "Cedar Lane", "Elm Drive", "Pine Road", "Washington Boulevard",
  "Lakeview Terrace", "Highland Avenue", "Park Place", "Church Street", "Mill Road", "Sunset Drive",
  "Riverside Court",
];
type Place = { city: string; state: string; zip: string; areaCode: string };
const PLACES: readonly Place[] = [
  { city: "Philadelphia", state: "PA", zip: "19103", areaCode: "215" },
  { city: "Pittsburgh", state: "PA", zip: "15213", areaCode: "412" },
  { city: "Columbus", state: "OH", zip: "43215", areaCode: "614" },
  { city: "Austin", state: "TX", zip: "78701", areaCode: "512" },
  { city: "Denver", state: "CO", zip: "80202", areaCode: "303" },
  { city: "Portland", state: "OR", zip: "97205", areaCode: "503" },
  { city: "Raleigh", state: "NC", zip: "27601", areaCode: "919" },
  { city: "Madison", state: "WI", zip: "53703", areaCode: "608" },
  { city: "Albuquerque", state: "NM", zip: "87102", areaCode: "505" },
  { city: "Tampa", state: "FL", zip: "33602", areaCode: "813" },
  { city: "Sacramento", state: "CA", zip: "95814", areaCode: "916" },
  { city: "Boise", state: "ID", zip: "83702", areaCode: "208" },
  { city: "Omaha", state: "NE", zip: "68102", areaCode: "402" },
  { city: "Richmond", state: "VA", zip: "23219", areaCode: "804" },
  { city: "Louisville", state: "KY", zip: "40202", areaCode: "502" },
  { city: "Washington", state: "DC", zip: "20001", areaCode: "202" },
  { city: "San Juan", state: "PR", zip: "00901", areaCode: "787" },
];
// prettier-ignore
const ALLERGIES = [
  "Penicillin", "Sulfa drugs", "Codeine", "Aspirin", "Latex", "Peanuts", "Shellfish", "Iodinated contrast",
  "Amoxicillin", "Ibuprofen", "Morphine", "Eggs", "Cephalexin",
];
const PLANS = [
  { planName: "Keystone Health PPO", bin: "610014", pcn: "ADV" },
  { planName: "Lakeshore Blue Choice", bin: "003858", pcn: "A4" },
  { planName: "Summit Care HMO", bin: "610097", pcn: "9999" },
  { planName: "Medicare Part D Standard", bin: "004336", pcn: "MEDDADV" },
  { planName: "State Employees Health Plan", bin: "015581", pcn: null },
  { planName: "Medicaid Managed Care", bin: "610494", pcn: "ACU" },
] as const;

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
    sendingPharmacy: demoSendingPharmacy(randomPharmacist(r), opts.sendingNpi ?? DEMO_SENDING_NPI),
    receivingPharmacy: demoReceivingPharmacy(opts.receivingNpi ?? DEMO_PHARMACY_NPI),
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

/** The demo mail-order pharmacy that sends transfers. */
function demoSendingPharmacy(pharmacist: Name, npi: string): Pharmacy {
  return {
    dea: "FD" + withDeaCheck("382910"),
    npi,
    name: DEMO_SENDING_NAME,
    pharmacist,
    address: {
      addressLine1: "2500 Commerce Parkway",
      addressLine2: null,
      city: "Columbus",
      state: "OH",
      postalCode: "43219",
      countryCode: "US",
    },
    email: "transfers@mailorder.example.com",
    contactInfo: { countryCode: "+1", phoneNumber: "6145550110" },
  };
}

function demoReceivingPharmacy(npi: string): Pharmacy {
  return {
    dea: "FR" + withDeaCheck("604417"),
    npi,
    name: DEMO_PHARMACY_NAME,
    pharmacist: { firstName: "Dana", lastName: "Whitfield", middleName: null, prefix: null, suffix: "PharmD" },
    address: {
      addressLine1: "75 River Road",
      addressLine2: null,
      city: "Philadelphia",
      state: "PA",
      postalCode: "19128",
      countryCode: "US",
    },
    email: "rx@riverside.example.com",
    contactInfo: { countryCode: "+1", phoneNumber: "2155550125" },
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

/** Six digits followed by their DEA check digit. */
function withDeaCheck(sixDigits: string): string {
  return sixDigits + String(computeDeaCheckDigit(sixDigits));
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

// ---------------------------------------------------------------------------------------------------
// Date formatting

/** RFC 3339 with the given offset from UTC in minutes, e.g. 2024-05-01T09:30:00-05:00. */
export function formatDateTime(epochMs: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
