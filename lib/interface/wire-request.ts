// The request side of the wire format (interface sections 2.1-2.11): TransferRequest and its parts.
import * as z from "zod";

import { MAX_JSON_DEPTH, RESERVED_KEY_NAMES } from "@/lib/text-safety";
import { ALLERGIES_DESCRIPTORS, BODY_SHAPE_LIMITS, GENDERS, TEXT_LIMITS, WIRE_MAXIMUMS } from "./wire-constants";
import { date, dateTime, dea, digits, email, ndc, npi, text } from "./wire-fields";

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
      .meta({
        description:
          "Allergy descriptions; may be empty. Under NO_KNOWN_ALLERGIES it may hold only a usual spelling of no known allergies (NKDA, NKA, NKMA, none, no known drug allergies); under NOT_AVAILABLE it must be empty.",
        example: ["Penicillin", "Sulfa drugs"],
      }),
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
  .check((ctx) => {
    // The shape scan of the body's text refuses this first (request-shape.ts); checked here too for the
    // callers that hand over a parsed value.
    if (Object.keys(ctx.value).length > BODY_SHAPE_LIMITS.keysPerObject)
      ctx.issues.push({
        code: "custom",
        message: `has more than ${BODY_SHAPE_LIMITS.keysPerObject} keys`,
        input: ctx.value,
      });
  })
  .meta({
    id: "RequestMetadata",
    description: `Request metadata. Additional properties are allowed and stored as sent, up to ${BODY_SHAPE_LIMITS.keysPerObject} keys in all, except the names ${RESERVED_KEY_NAMES.join(", ")} (at any depth).`,
    maxProperties: BODY_SHAPE_LIMITS.keysPerObject,
    propertyNames: { not: { enum: [...RESERVED_KEY_NAMES] } },
  });
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
    description: `A request to transfer ownership of one prescription to the receiving pharmacy. All keys are required. The body as a whole may hold at most ${BODY_SHAPE_LIMITS.values} values, ${BODY_SHAPE_LIMITS.keysPerObject} keys in one object and ${BODY_SHAPE_LIMITS.itemsPerArray} items in one array, nested at most ${MAX_JSON_DEPTH} levels: past them it is SPEC_MISMATCH before anything else is checked.`,
  });
export type TransferRequest = z.infer<typeof TransferRequestSchema>;
