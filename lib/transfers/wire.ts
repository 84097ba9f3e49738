// The wire format of the Prescription Transfer interface (its section 2; docs/interface.md), defined
// once. Request validation, the TypeScript types, the OpenAPI document and the test fixtures all derive
// from these schemas; nothing else restates the shapes.
//
// What these schemas decide is the *structure*: required keys, nullability, JSON types, lengths,
// patterns, enums and date formats. Whether well-formed values are also right (NPI and DEA check digits,
// a known receiving pharmacy, refills that add up, dates in order, expiry) is decided afterwards, in
// validate-request.ts, because the interface classifies those failures differently.
//
// Conventions:
// - Objects reject unknown keys, except the two metadata objects, which the interface marks as open.
// - Where the interface gives no length bound, strings must still be non-blank and get a generous
//   maximum (the constants below), so that storage and logs are protected.
// - Every string of a request, unknown keys and key names included, must be valid Unicode without NUL
//   (PostgreSQL cannot store the rest). That rule is not per field: validate-request.ts applies it to the
//   whole parsed body with lib/text-safety.ts.
// - Custom messages on checks are phrased to follow a field path ("prescription.dawCode must be…") and
//   never quote the value, because error descriptions may be logged.
import * as z from "zod";

export const ERROR_TYPES = [
  "MISSING_INFO",
  "INVALID_INFO",
  "RX_EXPIRED",
  "SPEC_MISMATCH",
  "DUPLICATE_REQUEST",
  "OTHER",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** What each error type means (interface section 7, as settled in docs/interface.md). */
export const ERROR_TYPE_MEANINGS: Readonly<Record<ErrorType, string>> = {
  MISSING_INFO: "a required field is missing: the key is absent, or null where the field is not nullable",
  INVALID_INFO:
    "data is well-formed but not an acceptable value: an NPI or DEA check digit, an unknown receiving pharmacy, refills that do not add up, a filled prescription with no refills left, dates out of order",
  RX_EXPIRED: "the prescription is expired",
  SPEC_MISMATCH:
    "data does not match the specification: wrong JSON type, length, pattern, enum value or date format, an unknown field, a body that is not a JSON object or not UTF-8, or text that is not valid Unicode or contains a NUL (strings must be valid Unicode without NUL, at any depth, key names included)",
  DUPLICATE_REQUEST:
    "the request was already submitted with other content, or the prescription already has a live transfer here",
  OTHER: "any other failure",
};

export const RESPONSE_TYPES = ["RECEIVED", "CONFIRMED", "ERROR"] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

export const ALLERGIES_DESCRIPTORS = ["KNOWN_ALLERGIES_INCLUDED", "NO_KNOWN_ALLERGIES", "NOT_AVAILABLE"] as const;
export const GENDERS = ["M", "F", "U"] as const;

/** Maximum lengths of the strings the interface leaves unbounded. */
export const TEXT_LIMITS = {
  identifier: 128,
  code: 64,
  name: 200,
  shortText: 100,
  allergy: 200,
  sig: 1000,
  url: 2048,
  email: 254,
  phone: 40,
  dea: 16,
  allergies: 100,
} as const;

/**
 * Upper bounds of the numbers, from the NCPDP fields they travel in (days supply 3 digits, quantity
 * 9999999.999, refills 0-99 after the first fill). Past them a value is SPEC_MISMATCH. The lower bounds
 * (daysSupply and quantities above 0, refillsAuthorized at least 1, refillsRemaining not negative) are
 * INVALID_INFO in validate-request.ts and published on each field with `minimum` / `exclusiveMinimum`.
 */
export const WIRE_MAXIMUMS = {
  daysSupply: 999,
  quantity: 9999999.999,
  refillsAuthorized: 100,
  retryCount: 10000,
} as const;

/** The date-time shape RFC 3339 leaves open and we do not (upper-case T and Z, seconds, a colon in the offset). */
export const DATE_TIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$";

/**
 * What an http(s) URL must look like, as a JSON Schema pattern: the scheme, a domain name with a letters-only
 * top-level label (zod's httpUrl hostname rule), an optional port, then anything without whitespace. JSON
 * Schema's `format: uri` is RFC 3986, stricter than the WHATWG URL parser we check with, so it is not published.
 */
export const HTTP_URL_PATTERN =
  "^[hH][tT][tT][pP][sS]?://([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}(:[0-9]{1,5})?([/?#]\\S*)?$";

const NOT_BLANK = /\S/;

/** A string of 1..max characters that is not all whitespace. */
function text(max: number) {
  return z.string().min(1).max(max).regex(NOT_BLANK, "must not be blank");
}

function digits(pattern: RegExp, message: string) {
  return z.string().regex(pattern, message);
}

const email = () => z.email().max(TEXT_LIMITS.email);

/** `date`: YYYY-MM-DD, a real calendar date. */
const date = () => z.iso.date();

/** `date-time`: RFC 3339 with seconds and a time-zone offset (`Z` or ±hh:mm), a real calendar date. */
const dateTime = () => z.iso.datetime({ offset: true });

const npi = () =>
  digits(/^\d{10}$/, "must be exactly 10 digits").meta({
    description: "National Provider Identifier: 10 digits, the last a Luhn check digit (prefix 80840).",
    example: "1234567893",
  });

const dea = () =>
  text(TEXT_LIMITS.dea).meta({
    description:
      "DEA registration number: two letters and seven digits, the last a check digit. Null when there is none.",
    example: "AP5836727",
  });

const ndc = () =>
  z.string().min(1).max(11).regex(/^\d+$/, "must contain digits only").meta({
    description:
      "National Drug Code: digits only, no hyphens, 1-11 characters. Send the 11-digit billing form (5-4-2, e.g. 00071015523). A 10-digit code is accepted and kept exactly as sent, but without hyphens it is ambiguous (4-4-2, 5-3-2 or 5-4-1 with the leading zero in a different segment): it is never converted, and the pharmacist is shown its three possible 11-digit readings and may ask you which one is meant.",
    example: "00071015523",
  });

// ---------------------------------------------------------------------------------------------------
// 2.3 Name

export const NameSchema = z
  .strictObject({
    firstName: text(35).meta({ description: "Given name.", example: "Maria" }),
    lastName: text(35).meta({ description: "Family name.", example: "Alvarez" }),
    middleName: text(35).nullable().meta({ description: "Middle name, or null.", example: "Luisa" }),
    prefix: text(10).nullable().meta({ description: "Prefix such as Dr. or Ms., or null.", example: null }),
    suffix: text(10).nullable().meta({ description: "Suffix such as Jr. or MD, or null.", example: null }),
  })
  .meta({ id: "Name", description: "A person's name." });
export type Name = z.infer<typeof NameSchema>;

// 2.4 Address

export const AddressSchema = z
  .strictObject({
    addressLine1: text(40).meta({ example: "1200 Market Street" }),
    addressLine2: text(40)
      .nullable()
      .meta({ description: "Second address line; only when needed and addressLine1 is used.", example: "Suite 210" }),
    city: text(35).meta({ example: "Philadelphia" }),
    state: z
      .string()
      .length(2)
      .regex(/^[A-Z]{2}$/, "must be a 2-letter uppercase state code")
      .meta({ description: "Two-letter USPS state or territory code.", example: "PA" }),
    postalCode: digits(/^\d{5}(-\d{4})?$/, "must be a 5-digit ZIP code or a ZIP+4 code written 12345-6789").meta({
      description: "ZIP code: 5 digits, or 9 digits written with a hyphen after the fifth.",
      example: "19107",
    }),
    countryCode: text(2).meta({ description: "Country code (ISO 3166-1 alpha-2).", example: "US" }),
  })
  .meta({ id: "Address", description: "A postal address." });
export type Address = z.infer<typeof AddressSchema>;

// 2.5 ContactInfo

export const ContactInfoSchema = z
  .strictObject({
    countryCode: digits(/^\+\d{1,3}$/, "must be a plus sign followed by 1 to 3 digits").meta({
      description: "Telephone country code with a leading plus sign.",
      example: "+1",
    }),
    phoneNumber: digits(/^\d{10}$/, "must be exactly 10 digits").meta({
      description: "10-digit phone number.",
      example: "2155550143",
    }),
  })
  .meta({ id: "ContactInfo", description: "A telephone number. The whole object may be null wherever it is used." });
export type ContactInfo = z.infer<typeof ContactInfoSchema>;

// 2.6 AllergyDetails

export const AllergyDetailsSchema = z
  .strictObject({
    allergiesDescriptor: z.enum(ALLERGIES_DESCRIPTORS).meta({
      description: "Whether allergies are known and listed, known to be none, or not available.",
      example: "KNOWN_ALLERGIES_INCLUDED",
    }),
    allergies: z
      .array(text(TEXT_LIMITS.allergy))
      .max(TEXT_LIMITS.allergies)
      .meta({ description: "Allergy descriptions; may be empty.", example: ["Penicillin", "Sulfa drugs"] }),
  })
  .meta({ id: "AllergyDetails", description: "The patient's allergies." });
export type AllergyDetails = z.infer<typeof AllergyDetailsSchema>;

// 2.7 Patient

export const PatientSchema = z
  .strictObject({
    name: NameSchema,
    dateOfBirth: date().meta({ description: "Date of birth (YYYY-MM-DD).", example: "1958-03-14" }),
    gender: z
      .enum(GENDERS)
      .meta({ description: "M (male), F (female) or U (not specified or unknown).", example: "F" }),
    address: AddressSchema,
    email: email().nullable().meta({ example: "maria.alvarez@example.com" }),
    contactInfo: ContactInfoSchema.nullable(),
    allergyDetails: AllergyDetailsSchema,
  })
  .meta({ id: "Patient", description: "The patient the prescription is for." });
export type Patient = z.infer<typeof PatientSchema>;

// 2.8 Prescriber

export const PrescriberSchema = z
  .strictObject({
    dea: dea().nullable(),
    npi: npi(),
    name: NameSchema,
    address: AddressSchema,
    faxNumber: text(TEXT_LIMITS.phone).nullable().meta({ example: "2155550199" }),
    email: email().nullable().meta({ example: "dr.chen@example.com" }),
    contactInfo: ContactInfoSchema.nullable(),
  })
  .meta({ id: "Prescriber", description: "The licensed professional who authorized the prescription." });
export type Prescriber = z.infer<typeof PrescriberSchema>;

// 2.9 Pharmacy

export const PharmacySchema = z
  .strictObject({
    dea: dea().nullable(),
    npi: npi(),
    name: text(TEXT_LIMITS.name).meta({ description: "Pharmacy name.", example: "Market Street Pharmacy" }),
    pharmacist: NameSchema,
    address: AddressSchema,
    email: email().meta({ example: "pharmacy@example.com" }),
    contactInfo: ContactInfoSchema.nullable(),
  })
  .meta({ id: "Pharmacy", description: "A pharmacy (used for sendingPharmacy and receivingPharmacy)." });
export type Pharmacy = z.infer<typeof PharmacySchema>;

// 2.10 Prescription

export const PrescriptionSchema = z
  .strictObject({
    rxNumber: text(TEXT_LIMITS.code).meta({
      description: "The sending pharmacy's number identifying the prescription.",
      example: "7042118",
    }),
    prescribedNDC: ndc(),
    dispensedNDC: ndc().nullable().meta({
      description:
        "NDC of the medication to dispense, in the same form as prescribedNDC; null when equal to prescribedNDC.",
      example: null,
    }),
    medicationName: text(TEXT_LIMITS.name).meta({ example: "Atorvastatin Calcium" }),
    drugForm: text(TEXT_LIMITS.shortText).meta({ description: "Medication form.", example: "Tablet" }),
    drugStrength: text(TEXT_LIMITS.shortText).meta({ description: "Strength with unit.", example: "20 mg" }),
    daysSupply: z
      .int()
      .max(WIRE_MAXIMUMS.daysSupply, `must be at most ${WIRE_MAXIMUMS.daysSupply}`)
      .meta({ description: "Prescribed days of supply, 1 to 999 (NCPDP's three digits).", minimum: 1, example: 90 }),
    dawCode: z
      .int()
      .min(0, "must be an integer from 0 to 9")
      .max(9, "must be an integer from 0 to 9")
      .nullable()
      .meta({ description: "Dispense-as-written code, 0-9.", example: 0 }),
    icdCode: text(TEXT_LIMITS.code).nullable().meta({ description: "ICD-10-CM diagnosis code.", example: "E78.5" }),
    sig: text(TEXT_LIMITS.sig).meta({
      description: "Directions: how much, how often, how to take.",
      example: "Take 1 tablet by mouth once daily in the evening",
    }),
    faxImageURL: z
      .string()
      // zod's URL check trims the value and strips tabs and newlines before it parses, so whitespace is
      // rejected first: what we accept is exactly what was sent.
      .regex(/^\S+$/, "must be an http or https URL")
      .max(TEXT_LIMITS.url)
      .check(z.httpUrl({ error: "must be an http or https URL" }))
      .nullable()
      .meta({ description: "http(s) URL of the transfer fax image.", example: null }),
    quantityWritten: z.number().max(WIRE_MAXIMUMS.quantity, `must be at most ${WIRE_MAXIMUMS.quantity}`).meta({
      description: "Quantity written, in the units of drugForm (tablets, mL, g…); greater than 0.",
      exclusiveMinimum: 0,
      example: 90,
    }),
    quantityDispensed: z.number().max(WIRE_MAXIMUMS.quantity, `must be at most ${WIRE_MAXIMUMS.quantity}`).meta({
      description:
        "Quantity wanted per order (per fill), in the units of drugForm; may differ from quantityWritten. Not a record of what was dispensed: a prescription never filled has one too. Greater than 0.",
      exclusiveMinimum: 0,
      example: 90,
    }),
    refillsAuthorized: z
      .int()
      .max(WIRE_MAXIMUMS.refillsAuthorized, `must be at most ${WIRE_MAXIMUMS.refillsAuthorized}`)
      .meta({ description: "Fills originally written, including the first fill: 1 to 100.", minimum: 1, example: 4 }),
    refillsRemaining: z
      .int()
      .max(WIRE_MAXIMUMS.refillsAuthorized - 1, `must be at most ${WIRE_MAXIMUMS.refillsAuthorized - 1}`)
      .meta({ description: "Subsequent refills remaining: 0 to refillsAuthorized - 1.", minimum: 0, example: 2 }),
    writtenDate: dateTime().meta({ example: "2024-03-01T10:15:00-05:00" }),
    firstFilledDate: dateTime().nullable().meta({ example: "2024-03-02T09:00:00-05:00" }),
    lastFilledDate: dateTime().nullable().meta({ example: "2024-05-30T16:40:00-04:00" }),
    expirationDate: dateTime().meta({ example: "2025-03-01T10:15:00-05:00" }),
    canSubstitute: z.boolean().meta({ description: "Whether another product may be substituted.", example: true }),
  })
  .meta({ id: "Prescription", description: "The prescription being transferred." });
export type Prescription = z.infer<typeof PrescriptionSchema>;

// 2.11 Insurance

export const InsuranceSchema = z
  .strictObject({
    planName: text(TEXT_LIMITS.name).meta({ example: "Keystone Health PPO" }),
    cardHolderID: text(35).meta({ example: "KHP448120937" }),
    cardHolderName: NameSchema,
    groupNumber: text(TEXT_LIMITS.code).nullable().meta({ example: "GRP20931" }),
    bin: text(TEXT_LIMITS.code).nullable().meta({ description: "NCPDP processor ID (BIN).", example: "610014" }),
    pcn: text(TEXT_LIMITS.code).nullable().meta({ description: "Processor control number.", example: "ADV" }),
    personCode: digits(/^\d{3}$/, "must be exactly 3 digits")
      .nullable()
      .meta({ description: "Person code, 3 digits.", example: "001" }),
  })
  .meta({ id: "Insurance", description: "An insurance plan. The whole object may be null." });
export type Insurance = z.infer<typeof InsuranceSchema>;

// 2.2 RequestMetadata

export const RequestMetadataSchema = z
  .looseObject({
    requestID: text(TEXT_LIMITS.identifier).meta({
      description: "Unique identifier of the API request; the idempotency key, per sender.",
      example: "req_01HZX3K8V6Q2M9T4",
    }),
    patientReferenceID: text(TEXT_LIMITS.identifier).meta({
      description: "Unique identifier of the sender's patient profile.",
      example: "pat_552901",
    }),
    requestTimestamp: dateTime().meta({ description: "Timestamp of the request.", example: "2024-06-03T14:02:11Z" }),
    retryCount: z
      .int()
      .min(0, "must be an integer of at least 0")
      .max(WIRE_MAXIMUMS.retryCount, `must be at most ${WIRE_MAXIMUMS.retryCount}`)
      .optional()
      .meta({ description: "Number of times this request has been retried.", example: 0 }),
  })
  .meta({ id: "RequestMetadata", description: "Request metadata. Additional properties are allowed." });
export type RequestMetadata = z.infer<typeof RequestMetadataSchema>;

// 2.1 TransferRequest

export const TransferRequestSchema = z
  .strictObject({
    metadata: RequestMetadataSchema,
    patient: PatientSchema,
    prescriber: PrescriberSchema,
    prescription: PrescriptionSchema,
    sendingPharmacy: PharmacySchema,
    receivingPharmacy: PharmacySchema,
    primaryInsurance: InsuranceSchema.nullable(),
    secondaryInsurance: InsuranceSchema.nullable(),
  })
  .meta({
    id: "TransferRequest",
    description:
      "A request to transfer ownership of one prescription to the receiving pharmacy. All keys are required.",
  });
export type TransferRequest = z.infer<typeof TransferRequestSchema>;

// 2.13 ResponseMetadata

export const ResponseMetadataSchema = z
  .looseObject({
    responseType: z.enum(RESPONSE_TYPES).meta({
      description:
        "RECEIVED: accepted, a confirming callback follows. CONFIRMED: transferred. ERROR: unsuccessful, see error.",
      example: "RECEIVED",
    }),
    referenceID: text(TEXT_LIMITS.identifier).meta({
      description: "Our identifier of the transfer; the same in the immediate answer and in the callback.",
      example: "trf_7Gq2LxW9pZ4mN8sK1vB3",
    }),
    responseID: text(TEXT_LIMITS.identifier).meta({
      description: "Unique identifier of this response.",
      example: "rsp_3Fh8KwQ1zX6cV9bN2mL5",
    }),
    responseTimestamp: dateTime().meta({ description: "Timestamp of the response.", example: "2024-06-03T14:02:11Z" }),
  })
  .meta({
    id: "ResponseMetadata",
    description:
      "Response metadata. Additional properties are allowed: a CONFIRMED answer may add localRxNumber, the Rx number our pharmacist assigned.",
  });
export type ResponseMetadata = z.infer<typeof ResponseMetadataSchema>;

// 2.14 Error

export const TransferErrorSchema = z
  .strictObject({
    type: z.enum(ERROR_TYPES).meta({ description: "The class of failure.", example: "MISSING_INFO" }),
    description: z.string().min(1).meta({
      description: "Which fields or condition failed, each field named by its full path.",
      example: "prescription.daysSupply is required",
    }),
  })
  .meta({ id: "Error", description: "Why a transfer request failed." });
export type TransferError = z.infer<typeof TransferErrorSchema>;

// 2.12 TransferResponse

export const TransferResponseSchema = z
  .strictObject({
    requestID: z.string().meta({
      description: "Echoes metadata.requestID of the request; an empty string when it could not be read.",
      example: "req_01HZX3K8V6Q2M9T4",
    }),
    metadata: ResponseMetadataSchema,
    error: TransferErrorSchema.optional(),
    prescription: PrescriptionSchema.optional(),
  })
  .superRefine((response, ctx) => {
    // The three variants of interface section 4.1: which of error/prescription each one carries.
    const { responseType } = response.metadata;
    const hasError = response.error !== undefined;
    const hasPrescription = response.prescription !== undefined;
    if (responseType === "ERROR" && !hasError) {
      ctx.addIssue({ code: "custom", path: ["error"], message: "is required when metadata.responseType is ERROR" });
    }
    if (responseType !== "ERROR" && hasError) {
      ctx.addIssue({ code: "custom", path: ["error"], message: "is allowed only when metadata.responseType is ERROR" });
    }
    if (responseType === "CONFIRMED" && !hasPrescription) {
      ctx.addIssue({
        code: "custom",
        path: ["prescription"],
        message: "is required when metadata.responseType is CONFIRMED",
      });
    }
    if (responseType !== "CONFIRMED" && hasPrescription) {
      ctx.addIssue({
        code: "custom",
        path: ["prescription"],
        message: "is allowed only when metadata.responseType is CONFIRMED",
      });
    }
  })
  .meta({
    id: "TransferResponse",
    description:
      "Every answer of /v1/transfer. RECEIVED: requestID and metadata. CONFIRMED: also prescription. ERROR: also error.",
  });
export type TransferResponse = z.infer<typeof TransferResponseSchema>;
