// A valid, realistic TransferRequest for tests, demo seed data and benchmarks. Typed from wire.ts, so a
// change of the wire format breaks the fixtures at compile time; the tests also run them through the
// validator. Identifiers are made with the check-digit functions, so they pass the semantic checks.
//
// Names, addresses, phone numbers (555-01xx), e-mail domains (example.com) and identifiers are invented.
// Many distinct random ones: randomTransferRequest in random-transfer-request.ts.
import type { Insurance, TransferRequest } from "@/lib/interface";
import { demoPharmacies, withDeaCheck } from "@/lib/demo/demo-pharmacies";
import { DAY_MS, formatDateTime } from "@/lib/demo/fixture-dates";

export { DEMO_PHARMACY_NAME, DEMO_PHARMACY_NPI, DEMO_SENDING_NAME, DEMO_SENDING_NPI } from "@/lib/demo/demo-pharmacies";
export { formatDateTime } from "@/lib/demo/fixture-dates";

export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
export type TransferRequestOverrides = DeepPartial<TransferRequest>;
export type FixtureOptions = { receivingNpi?: string; sendingNpi?: string; now?: Date };

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
    ...demoPharmacies(
      { firstName: "Priya", lastName: "Raman", middleName: null, prefix: null, suffix: "PharmD" },
      opts,
    ),
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
