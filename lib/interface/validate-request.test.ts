import { describe, expect, it } from "vitest";
import { buildTransferRequest, DEMO_PHARMACY_NPI, DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import { randomTransferRequest } from "@/lib/demo/random-transfer-request";
import { computeNpiCheckDigit, isValidDea, isValidNpi } from "@/lib/interface/identifiers";
import {
  formatPath,
  MAX_DESCRIBED_ISSUES,
  readRequestId,
  validateTransferRequest,
  type ValidationResult,
} from "@/lib/interface/validate-request";
import {
  TransferRequestSchema,
  TransferResponseSchema,
  type ErrorType,
  type TransferRequest,
} from "@/lib/interface/wire";

const NOW = new Date("2025-06-02T14:05:00Z");
const CTX = { storeNpis: new Set([DEMO_PHARMACY_NPI]), now: NOW };
const MINUTE = 60_000;
const DAY = 86_400_000;

function valid(): TransferRequest {
  return buildTransferRequest({}, { now: NOW });
}

function validate(body: unknown): ValidationResult {
  return validateTransferRequest(body, CTX);
}

type Segment = string | number;

/** "a.b[2].c" → ["a", "b", 2, "c"] */
function segmentsOf(path: string): Segment[] {
  return path.split(".").flatMap((part) => {
    const m = /^([^[]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new Error(`bad path ${path}`);
    const indexes = [...(m[2] ?? "").matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
    return [m[1] as string, ...indexes];
  });
}

function parentOf(root: unknown, path: string): { parent: Record<Segment, unknown>; key: Segment } {
  const segments = segmentsOf(path);
  const key = segments.pop() as Segment;
  let parent = root as Record<Segment, unknown>;
  for (const s of segments) parent = parent[s] as Record<Segment, unknown>;
  return { parent, key };
}

const DELETE = Symbol("delete");

/** A fresh valid request with values set (or keys deleted, with DELETE) at the given paths. */
function corrupted(changes: Record<string, unknown>, base: TransferRequest = valid()): unknown {
  const request = base as unknown;
  for (const [path, value] of Object.entries(changes)) {
    const { parent, key } = parentOf(request, path);
    if (value === DELETE) delete parent[key];
    else parent[key] = value;
  }
  return request;
}

const withValue = (path: string, value: unknown) => corrupted({ [path]: value });
const without = (path: string) => corrupted({ [path]: DELETE });

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function expectFailure(result: ValidationResult, type: ErrorType, paths: string[]): void {
  if (result.ok) throw new Error(`expected ${type}, got a valid request`);
  expect(result.type).toBe(type);
  expect(result.issues.map((i) => i.path).sort()).toEqual([...paths].sort());
  for (const path of paths) expect(result.description).toContain(path);
}

// ---------------------------------------------------------------------------------------------------
// The field table: every field of the interface, with its rules

type FieldRule = {
  path: string;
  /** May the value be null? */
  nullable: boolean;
  /** May the key be left out? */
  optional?: boolean;
  /** A value of the wrong JSON type. */
  wrongType: unknown;
  /** Well-typed values that break a length, pattern, enum, range or format rule: SPEC_MISMATCH. */
  malformed: [label: string, value: unknown][];
};

const tooLong = (n: number) => "x".repeat(n + 1);

function text(path: string, max: number, nullable = false): FieldRule {
  return {
    path,
    nullable,
    wrongType: 42,
    malformed: [
      ["empty", ""],
      ["blank", " "],
      [`longer than ${max}`, tooLong(max)],
    ],
  };
}

function pattern(path: string, malformed: [string, unknown][], nullable = false): FieldRule {
  return { path, nullable, wrongType: 5551234567, malformed };
}

function email(path: string, nullable: boolean): FieldRule {
  return {
    path,
    nullable,
    wrongType: true,
    malformed: [
      ["not an address", "maria at example.com"],
      ["no domain", "maria@"],
      ["empty", ""],
      ["longer than 254", `${"a".repeat(250)}@example.com`],
    ],
  };
}

function dateTime(path: string, nullable: boolean): FieldRule {
  return {
    path,
    nullable,
    wrongType: 1717336800000,
    malformed: [
      ["without offset", "2025-01-01T10:00:00"],
      ["without seconds", "2025-01-01T10:00Z"],
      ["date only", "2025-01-01"],
      ["not a real date", "2025-02-30T10:00:00Z"],
      ["hour 24", "2025-01-01T24:00:00Z"],
      ["space instead of T", "2025-01-01 10:00:00Z"],
      ["free text", "yesterday"],
    ],
  };
}

function object(path: string, nullable: boolean): FieldRule {
  return { path, nullable, wrongType: "an object", malformed: [["an array", []]] };
}

function nameRules(prefix: string): FieldRule[] {
  return [
    object(prefix, false),
    text(`${prefix}.firstName`, 35),
    text(`${prefix}.lastName`, 35),
    text(`${prefix}.middleName`, 35, true),
    text(`${prefix}.prefix`, 10, true),
    text(`${prefix}.suffix`, 10, true),
  ];
}

function addressRules(prefix: string): FieldRule[] {
  return [
    object(prefix, false),
    text(`${prefix}.addressLine1`, 40),
    text(`${prefix}.addressLine2`, 40, true),
    text(`${prefix}.city`, 35),
    pattern(`${prefix}.state`, [
      ["one letter", "P"],
      ["three letters", "PEN"],
      ["lower case", "pa"],
      ["digits", "12"],
      ["empty", ""],
    ]),
    pattern(`${prefix}.postalCode`, [
      ["four digits", "1910"],
      ["six digits", "191070"],
      ["nine digits without hyphen", "191075563"],
      ["letters", "ABCDE"],
      ["short plus-four", "19107-556"],
      ["empty", ""],
    ]),
    text(`${prefix}.countryCode`, 2),
  ];
}

function contactInfoRules(prefix: string): FieldRule[] {
  return [
    object(prefix, true),
    pattern(`${prefix}.countryCode`, [
      ["no plus sign", "1"],
      ["four digits", "+1234"],
      ["plus only", "+"],
      ["letters", "+US"],
    ]),
    pattern(`${prefix}.phoneNumber`, [
      ["nine digits", "215555014"],
      ["eleven digits", "12155550143"],
      ["formatted", "215-555-0143"],
      ["empty", ""],
    ]),
  ];
}

function npiRule(path: string): FieldRule {
  return pattern(path, [
    ["nine digits", "123456789"],
    ["eleven digits", "12345678931"],
    ["letters", "12345678ab"],
    ["empty", ""],
  ]);
}

function deaRule(path: string): FieldRule {
  return {
    path,
    nullable: true,
    wrongType: 1234563,
    malformed: [
      ["empty", ""],
      ["blank", "  "],
      ["too long", tooLong(16)],
    ],
  };
}

function pharmacyRules(prefix: string): FieldRule[] {
  return [
    object(prefix, false),
    deaRule(`${prefix}.dea`),
    npiRule(`${prefix}.npi`),
    text(`${prefix}.name`, 200),
    ...nameRules(`${prefix}.pharmacist`),
    ...addressRules(`${prefix}.address`),
    email(`${prefix}.email`, false),
    ...contactInfoRules(`${prefix}.contactInfo`),
  ];
}

function ndcRule(path: string, nullable: boolean): FieldRule {
  return pattern(
    path,
    [
      ["empty", ""],
      ["twelve digits", "000710155231"],
      ["hyphenated", "0071-0155-23"],
    ],
    nullable,
  );
}

function integer(path: string, nullable = false): FieldRule {
  return { path, nullable, wrongType: "30", malformed: [["a fraction", 1.5]] };
}

function insuranceRules(prefix: string): FieldRule[] {
  return [
    object(prefix, true),
    text(`${prefix}.planName`, 200),
    text(`${prefix}.cardHolderID`, 35),
    ...nameRules(`${prefix}.cardHolderName`),
    text(`${prefix}.groupNumber`, 64, true),
    text(`${prefix}.bin`, 64, true),
    text(`${prefix}.pcn`, 64, true),
    pattern(
      `${prefix}.personCode`,
      [
        ["two digits", "01"],
        ["four digits", "0001"],
        ["letters", "abc"],
      ],
      true,
    ),
  ];
}

const FIELD_RULES: FieldRule[] = [
  // 2.2 RequestMetadata
  object("metadata", false),
  text("metadata.requestID", 128),
  text("metadata.patientReferenceID", 128),
  dateTime("metadata.requestTimestamp", false),
  {
    path: "metadata.retryCount",
    nullable: false,
    optional: true,
    wrongType: "1",
    malformed: [
      ["negative", -1],
      ["a fraction", 0.5],
    ],
  },
  // 2.7 Patient
  object("patient", false),
  ...nameRules("patient.name"),
  {
    path: "patient.dateOfBirth",
    nullable: false,
    wrongType: 19580314,
    malformed: [
      ["US format", "03/14/1958"],
      ["not a real date", "2023-02-29"],
      ["a date-time", "1958-03-14T00:00:00Z"],
      ["month 13", "1958-13-01"],
      ["empty", ""],
    ],
  },
  {
    path: "patient.gender",
    nullable: false,
    wrongType: 1,
    malformed: [
      ["lower case", "f"],
      ["a word", "Female"],
      ["not in the enum", "X"],
    ],
  },
  ...addressRules("patient.address"),
  email("patient.email", true),
  ...contactInfoRules("patient.contactInfo"),
  object("patient.allergyDetails", false),
  {
    path: "patient.allergyDetails.allergiesDescriptor",
    nullable: false,
    wrongType: true,
    malformed: [
      ["not in the enum", "NONE"],
      ["lower case", "no_known_allergies"],
    ],
  },
  {
    path: "patient.allergyDetails.allergies",
    nullable: false,
    wrongType: "Penicillin",
    malformed: [["more than 100 items", Array.from({ length: 101 }, (_, i) => `Allergen ${i}`)]],
  },
  text("patient.allergyDetails.allergies[0]", 200),
  // 2.8 Prescriber
  object("prescriber", false),
  deaRule("prescriber.dea"),
  npiRule("prescriber.npi"),
  ...nameRules("prescriber.name"),
  ...addressRules("prescriber.address"),
  text("prescriber.faxNumber", 40, true),
  email("prescriber.email", true),
  ...contactInfoRules("prescriber.contactInfo"),
  // 2.10 Prescription
  object("prescription", false),
  text("prescription.rxNumber", 64),
  ndcRule("prescription.prescribedNDC", false),
  ndcRule("prescription.dispensedNDC", true),
  text("prescription.medicationName", 200),
  text("prescription.drugForm", 100),
  text("prescription.drugStrength", 100),
  integer("prescription.daysSupply"),
  {
    path: "prescription.dawCode",
    nullable: true,
    wrongType: "0",
    malformed: [
      ["10", 10],
      ["negative", -1],
      ["a fraction", 1.5],
    ],
  },
  text("prescription.icdCode", 64, true),
  text("prescription.sig", 1000),
  {
    path: "prescription.faxImageURL",
    nullable: true,
    wrongType: 7,
    malformed: [
      ["ftp", "ftp://fax.example.com/a.pdf"],
      ["javascript", "javascript:alert(1)"],
      ["no scheme", "fax.example.com/a.pdf"],
      ["leading space", " https://fax.example.com/a.pdf"],
      ["space inside", "https://fax.example.com/a b.pdf"],
      ["localhost", "http://localhost/a.pdf"],
      ["longer than 2048", `https://fax.example.com/${"a".repeat(2048)}`],
      ["empty", ""],
    ],
  },
  { path: "prescription.quantityWritten", nullable: false, wrongType: "90", malformed: [] },
  { path: "prescription.quantityDispensed", nullable: false, wrongType: "90", malformed: [] },
  integer("prescription.refillsAuthorized"),
  integer("prescription.refillsRemaining"),
  dateTime("prescription.writtenDate", false),
  dateTime("prescription.firstFilledDate", true),
  dateTime("prescription.lastFilledDate", true),
  dateTime("prescription.expirationDate", false),
  { path: "prescription.canSubstitute", nullable: false, wrongType: "true", malformed: [["a number", 1]] },
  // 2.9 Pharmacies
  ...pharmacyRules("sendingPharmacy"),
  ...pharmacyRules("receivingPharmacy"),
  // 2.11 Insurance
  ...insuranceRules("primaryInsurance"),
];

// The secondary insurance is null in the base fixture; give it one so its fields can be corrupted too.
const withSecondary = (): TransferRequest =>
  buildTransferRequest({ secondaryInsurance: { planName: "Medicare Part D Standard" } }, { now: NOW });

describe("validateTransferRequest: structure, field by field", () => {
  it("accepts the base fixture", () => {
    expect(validate(valid())).toEqual({ ok: true, request: valid() });
  });

  describe.each(FIELD_RULES)("$path", (rule) => {
    if (rule.optional) {
      it("may be left out", () => {
        expect(validate(without(rule.path)).ok).toBe(true);
      });
      it("must not be null (SPEC_MISMATCH: the key is optional, not required)", () => {
        expectFailure(validate(withValue(rule.path, null)), "SPEC_MISMATCH", [rule.path]);
      });
    } else {
      it("is required: absent → MISSING_INFO", () => {
        const result = validate(without(rule.path));
        expectFailure(result, "MISSING_INFO", [rule.path]);
        if (!result.ok) expect(result.description).toBe(`${rule.path} is required`);
      });
      if (rule.nullable) {
        it("may be null", () => {
          const result = validate(withValue(rule.path, null));
          // Null is well-formed; only a rule across fields (lastFilledDate needs firstFilledDate) can object.
          if (!result.ok) expect(result.type).toBe("INVALID_INFO");
        });
      } else {
        it("must not be null → MISSING_INFO", () => {
          const result = validate(withValue(rule.path, null));
          expectFailure(result, "MISSING_INFO", [rule.path]);
          if (!result.ok) expect(result.description).toBe(`${rule.path} must not be null`);
        });
      }
    }

    it("wrong JSON type → SPEC_MISMATCH", () => {
      expectFailure(validate(withValue(rule.path, rule.wrongType)), "SPEC_MISMATCH", [rule.path]);
    });

    if (rule.malformed.length > 0) {
      it.each(rule.malformed)("%s → SPEC_MISMATCH", (_label, value) => {
        expectFailure(validate(withValue(rule.path, value)), "SPEC_MISMATCH", [rule.path]);
      });
    }
  });

  describe.each(insuranceRules("secondaryInsurance").slice(1))("$path (secondary insurance)", (rule) => {
    const corrupt = (value: unknown) => validate(corrupted({ [rule.path]: value }, withSecondary()));
    it("absent → MISSING_INFO", () => {
      expectFailure(corrupt(DELETE), "MISSING_INFO", [rule.path]);
    });
    it("wrong JSON type → SPEC_MISMATCH", () => {
      expectFailure(corrupt(rule.wrongType), "SPEC_MISMATCH", [rule.path]);
    });
    it.each(rule.malformed)("%s → SPEC_MISMATCH", (_label, value) => {
      expectFailure(corrupt(value), "SPEC_MISMATCH", [rule.path]);
    });
  });

  it("covers every key of the wire schema", () => {
    const tablePaths = new Set([...FIELD_RULES.map((r) => r.path), "primaryInsurance", "secondaryInsurance"]);
    const walk = (value: unknown, path: string): string[] => {
      if (typeof value !== "object" || value === null) return [path];
      if (Array.isArray(value)) return [path, ...value.slice(0, 1).flatMap((v, i) => walk(v, `${path}[${i}]`))];
      return [path, ...Object.entries(value).flatMap(([k, v]) => walk(v, path ? `${path}.${k}` : k))].filter(Boolean);
    };
    const fixturePaths = walk(valid(), "").filter((p) => p !== "");
    for (const path of fixturePaths) expect(tablePaths, path).toContain(path);
  });

  it.each(["", "patient", "patient.name", "prescription", "metadata", "receivingPharmacy.address"])(
    "rejects an unknown key under %s → SPEC_MISMATCH, unless the object is metadata",
    (prefix) => {
      const path = prefix ? `${prefix}.nickname` : "nickname";
      const result = validate(withValue(path, "x"));
      if (prefix === "metadata") {
        expect(result.ok).toBe(true);
      } else {
        expectFailure(result, "SPEC_MISMATCH", [path]);
        if (!result.ok) expect(result.description).toBe(`${path} is not an allowed field`);
      }
    },
  );

  it.each([
    ["null", null],
    ["an array", []],
    ["a string", "{}"],
    ["a number", 1],
    ["undefined", undefined],
  ])("rejects %s as the body → SPEC_MISMATCH", (_label, body) => {
    const result = validate(body);
    expect(result).toMatchObject({
      ok: false,
      type: "SPEC_MISMATCH",
      description: "request body must be a JSON object",
    });
  });

  it("reports an empty object as every top-level key missing", () => {
    const result = validate({});
    const keys = Object.keys(TransferRequestSchema.shape);
    expectFailure(result, "MISSING_INFO", keys);
  });

  it("describes integer fields as integers", () => {
    const result = validate(withValue("prescription.daysSupply", "30"));
    expect(result).toMatchObject({ description: "prescription.daysSupply must be an integer" });
  });

  it("uses the rule's own words where the interface states one", () => {
    const result = validate(withValue("prescription.dawCode", 12));
    expect(result).toMatchObject({ description: "prescription.dawCode must be an integer from 0 to 9" });
  });

  it("reports a value once even when it breaks several checks", () => {
    const result = validate(withValue("patient.address.state", "penn"));
    expect(result).toMatchObject({ issues: [{ path: "patient.address.state", type: "SPEC_MISMATCH" }] });
  });
});

// ---------------------------------------------------------------------------------------------------
// Semantics

type SemanticCase = {
  name: string;
  change: (r: TransferRequest) => void;
  type: ErrorType | "ok";
  paths?: string[];
};

const invalidNpi = (valid: string) => valid.slice(0, 9) + String((Number(valid[9]) + 1) % 10);
const npiWith = (body: string) => body + String(computeNpiCheckDigit(body));

const SEMANTIC_CASES: SemanticCase[] = [
  // Identifiers
  {
    name: "prescriber NPI check digit",
    change: (r) => (r.prescriber.npi = invalidNpi(r.prescriber.npi)),
    type: "INVALID_INFO",
    paths: ["prescriber.npi"],
  },
  {
    name: "sending NPI check digit",
    change: (r) => (r.sendingPharmacy.npi = invalidNpi(r.sendingPharmacy.npi)),
    type: "INVALID_INFO",
    paths: ["sendingPharmacy.npi"],
  },
  {
    name: "receiving NPI check digit",
    change: (r) => (r.receivingPharmacy.npi = invalidNpi(r.receivingPharmacy.npi)),
    type: "INVALID_INFO",
    paths: ["receivingPharmacy.npi"],
  },
  {
    name: "NPI starting with 3",
    change: (r) => (r.prescriber.npi = "3234567893"),
    type: "INVALID_INFO",
    paths: ["prescriber.npi"],
  },
  {
    name: "receiving NPI valid but not one of our stores",
    change: (r) => (r.receivingPharmacy.npi = npiWith("198765432")),
    type: "INVALID_INFO",
    paths: ["receivingPharmacy.npi"],
  },
  {
    name: "prescriber DEA check digit",
    change: (r) => (r.prescriber.dea = "AP5836728"),
    type: "INVALID_INFO",
    paths: ["prescriber.dea"],
  },
  {
    name: "prescriber DEA format",
    change: (r) => (r.prescriber.dea = "A12345"),
    type: "INVALID_INFO",
    paths: ["prescriber.dea"],
  },
  {
    name: "prescriber DEA in lower case",
    change: (r) => (r.prescriber.dea = "ap5836727"),
    type: "INVALID_INFO",
    paths: ["prescriber.dea"],
  },
  {
    name: "sending DEA check digit",
    change: (r) => (r.sendingPharmacy.dea = "FD3829101"),
    type: "INVALID_INFO",
    paths: ["sendingPharmacy.dea"],
  },
  {
    name: "receiving DEA format",
    change: (r) => (r.receivingPharmacy.dea = "FR60441730"),
    type: "INVALID_INFO",
    paths: ["receivingPharmacy.dea"],
  },
  {
    name: "no DEA numbers at all",
    change: (r) => {
      r.prescriber.dea = null;
      r.sendingPharmacy.dea = null;
      r.receivingPharmacy.dea = null;
    },
    type: "ok",
  },
  // States
  ...["patient.address", "prescriber.address", "sendingPharmacy.address", "receivingPharmacy.address"].map(
    (path): SemanticCase => ({
      name: `${path}.state not a US code`,
      change: (r) => {
        const { parent, key } = parentOf(r, path);
        (parent[key] as { state: string }).state = "XX";
      },
      type: "INVALID_INFO",
      paths: [`${path}.state`],
    }),
  ),
  {
    name: "a territory (PR)",
    change: (r) => {
      r.patient.address.state = "PR";
      r.patient.address.postalCode = "00901";
    },
    type: "ok",
  },
  { name: "a military code (AE)", change: (r) => (r.patient.address.state = "AE"), type: "ok" },
  // Allergies
  {
    name: "allergies listed although none are known",
    change: (r) => (r.patient.allergyDetails.allergiesDescriptor = "NO_KNOWN_ALLERGIES"),
    type: "INVALID_INFO",
    paths: ["patient.allergyDetails.allergies"],
  },
  {
    name: "a real allergy beside NKDA although none are known",
    change: (r) =>
      (r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA", "Codeine"] }),
    type: "INVALID_INFO",
    paths: ["patient.allergyDetails.allergies"],
  },
  ...["NKDA", "nkda", "N.K.D.A.", "NKA", "None", " none ", "No known drug allergies", "No Known Allergies", "NKMA"].map(
    (entry): SemanticCase => ({
      name: `no known allergies written as "${entry}"`,
      change: (r) => (r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [entry] }),
      type: "ok",
    }),
  ),
  ...["N/A", "NKFA", "Penicillin", "none of the penicillins"].map((entry): SemanticCase => ({
    name: `"${entry}" is not a spelling of no known allergies`,
    change: (r) => (r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [entry] }),
    type: "INVALID_INFO",
    paths: ["patient.allergyDetails.allergies"],
  })),
  {
    name: "NKDA when allergy information is not available",
    change: (r) => (r.patient.allergyDetails = { allergiesDescriptor: "NOT_AVAILABLE", allergies: ["NKDA"] }),
    type: "INVALID_INFO",
    paths: ["patient.allergyDetails.allergies"],
  },
  {
    name: "allergies said to be included but none listed",
    change: (r) => (r.patient.allergyDetails.allergies = []),
    type: "INVALID_INFO",
    paths: ["patient.allergyDetails.allergies"],
  },
  {
    name: "no known allergies, none listed",
    change: (r) => (r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] }),
    type: "ok",
  },
  {
    name: "allergies not available, none listed",
    change: (r) => (r.patient.allergyDetails = { allergiesDescriptor: "NOT_AVAILABLE", allergies: [] }),
    type: "ok",
  },
  // Quantities
  {
    name: "daysSupply 0",
    change: (r) => (r.prescription.daysSupply = 0),
    type: "INVALID_INFO",
    paths: ["prescription.daysSupply"],
  },
  {
    name: "daysSupply negative",
    change: (r) => (r.prescription.daysSupply = -30),
    type: "INVALID_INFO",
    paths: ["prescription.daysSupply"],
  },
  {
    name: "quantityWritten 0",
    change: (r) => (r.prescription.quantityWritten = 0),
    type: "INVALID_INFO",
    paths: ["prescription.quantityWritten"],
  },
  {
    name: "quantityDispensed negative",
    change: (r) => (r.prescription.quantityDispensed = -1),
    type: "INVALID_INFO",
    paths: ["prescription.quantityDispensed"],
  },
  {
    name: "fractional quantities",
    change: (r) => {
      r.prescription.quantityWritten = 7.5;
      r.prescription.quantityDispensed = 2.5;
    },
    type: "ok",
  },
  {
    name: "dispensedNDC equal to prescribedNDC",
    change: (r) => (r.prescription.dispensedNDC = r.prescription.prescribedNDC),
    type: "INVALID_INFO",
    paths: ["prescription.dispensedNDC"],
  },
  {
    name: "dispensedNDC different from prescribedNDC",
    change: (r) => (r.prescription.dispensedNDC = "60505257909"),
    type: "ok",
  },
  // Refills
  {
    name: "refillsAuthorized 0",
    change: (r) => (r.prescription.refillsAuthorized = 0),
    type: "INVALID_INFO",
    paths: ["prescription.refillsAuthorized"],
  },
  {
    name: "refillsRemaining negative",
    change: (r) => (r.prescription.refillsRemaining = -1),
    type: "INVALID_INFO",
    paths: ["prescription.refillsRemaining"],
  },
  {
    name: "refillsRemaining equal to refillsAuthorized",
    change: (r) => (r.prescription.refillsRemaining = r.prescription.refillsAuthorized),
    type: "INVALID_INFO",
    paths: ["prescription.refillsRemaining"],
  },
  {
    name: "refillsRemaining one less than refillsAuthorized",
    change: (r) => {
      r.prescription.refillsRemaining = r.prescription.refillsAuthorized - 1;
    },
    type: "ok",
  },
  {
    name: "filled with no refills remaining",
    change: (r) => (r.prescription.refillsRemaining = 0),
    type: "INVALID_INFO",
    paths: ["prescription.refillsRemaining"],
  },
  {
    name: "unfilled with only the first fill",
    change: (r) =>
      Object.assign(r.prescription, {
        refillsAuthorized: 1,
        refillsRemaining: 0,
        firstFilledDate: null,
        lastFilledDate: null,
      }),
    type: "ok",
  },
  {
    name: "lastFilledDate without firstFilledDate",
    change: (r) => (r.prescription.firstFilledDate = null),
    type: "INVALID_INFO",
    paths: ["prescription.firstFilledDate"],
  },
  { name: "firstFilledDate without lastFilledDate", change: (r) => (r.prescription.lastFilledDate = null), type: "ok" },
  // Dates
  {
    name: "born after the prescription was written",
    change: (r) =>
      (r.patient.dateOfBirth = iso(Date.parse(r.prescription.writtenDate.slice(0, 10)) + DAY).slice(0, 10)),
    type: "INVALID_INFO",
    paths: ["patient.dateOfBirth"],
  },
  {
    name: "born on the day it was written",
    change: (r) => (r.patient.dateOfBirth = r.prescription.writtenDate.slice(0, 10)),
    type: "ok",
  },
  {
    name: "born in the future",
    change: (r) => (r.patient.dateOfBirth = "2025-06-04"),
    type: "INVALID_INFO",
    paths: ["patient.dateOfBirth"],
  },
  {
    name: "written in the future",
    change: (r) =>
      Object.assign(r.prescription, {
        writtenDate: iso(NOW.getTime() + 10 * MINUTE),
        firstFilledDate: null,
        lastFilledDate: null,
      }),
    type: "INVALID_INFO",
    paths: ["prescription.writtenDate"],
  },
  {
    name: "written 4 minutes ahead (clock skew)",
    change: (r) =>
      Object.assign(r.prescription, {
        writtenDate: iso(NOW.getTime() + 4 * MINUTE),
        firstFilledDate: null,
        lastFilledDate: null,
      }),
    type: "ok",
  },
  {
    name: "first fill before written",
    change: (r) => (r.prescription.firstFilledDate = iso(NOW.getTime() - 50 * DAY)),
    type: "INVALID_INFO",
    paths: ["prescription.firstFilledDate"],
  },
  {
    name: "first fill at the written time",
    change: (r) => (r.prescription.firstFilledDate = r.prescription.writtenDate),
    type: "ok",
  },
  {
    name: "last fill before first fill",
    change: (r) => (r.prescription.lastFilledDate = iso(NOW.getTime() - 39.5 * DAY)),
    type: "INVALID_INFO",
    paths: ["prescription.lastFilledDate"],
  },
  {
    name: "last fill equal to first fill",
    change: (r) => (r.prescription.lastFilledDate = r.prescription.firstFilledDate),
    type: "ok",
  },
  {
    name: "first fill in the future",
    change: (r) => {
      r.prescription.firstFilledDate = iso(NOW.getTime() + DAY);
      r.prescription.lastFilledDate = null;
    },
    type: "INVALID_INFO",
    paths: ["prescription.firstFilledDate"],
  },
  {
    name: "last fill in the future",
    change: (r) => (r.prescription.lastFilledDate = iso(NOW.getTime() + DAY)),
    type: "INVALID_INFO",
    paths: ["prescription.lastFilledDate"],
  },
  {
    name: "offsets are honoured (same instant, other offset)",
    change: (r) => (r.prescription.lastFilledDate = "2025-06-02T09:05:00-05:00"),
    type: "ok",
  },
  {
    name: "expiration before written (and so expired)",
    change: (r) => (r.prescription.expirationDate = iso(NOW.getTime() - 60 * DAY)),
    type: "RX_EXPIRED",
    paths: ["prescription.expirationDate", "prescription.expirationDate"],
  },
  // Expiry
  {
    name: "expired a day ago",
    change: (r) => (r.prescription.expirationDate = iso(NOW.getTime() - DAY)),
    type: "RX_EXPIRED",
    paths: ["prescription.expirationDate"],
  },
  {
    name: "expiring exactly now",
    change: (r) => (r.prescription.expirationDate = iso(NOW.getTime())),
    type: "RX_EXPIRED",
    paths: ["prescription.expirationDate"],
  },
  {
    name: "expiring in a second",
    change: (r) => (r.prescription.expirationDate = iso(NOW.getTime() + 1000)),
    type: "ok",
  },
  {
    name: "expiry judged on the instant, offset included",
    change: (r) => (r.prescription.expirationDate = "2025-06-02T10:00:00-05:00"),
    type: "ok",
  },
  {
    name: "expired by its offset",
    change: (r) => (r.prescription.expirationDate = "2025-06-02T14:00:00+01:00"),
    type: "RX_EXPIRED",
    paths: ["prescription.expirationDate"],
  },
];

describe("validateTransferRequest: semantics", () => {
  it.each(SEMANTIC_CASES)("$name → $type", ({ change, type, paths }) => {
    const request = valid();
    change(request);
    const result = validate(request);
    if (type === "ok") {
      expect(result).toEqual({ ok: true, request });
    } else {
      expectFailure(result, type, paths ?? []);
    }
  });

  it("stores NKDA under NO_KNOWN_ALLERGIES as sent, and names both fields when a real allergy contradicts it", () => {
    const nkda = valid();
    nkda.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA"] };
    const accepted = validate(nkda);
    expect(accepted.ok && accepted.request.patient.allergyDetails.allergies).toEqual(["NKDA"]);
    const codeine = valid();
    codeine.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA", "Codeine"] };
    const refused = validate(codeine);
    expect(refused.ok ? null : refused.description).toBe(
      'patient.allergyDetails.allergies lists an allergy ("Codeine") while patient.allergyDetails.allergiesDescriptor is NO_KNOWN_ALLERGIES: send KNOWN_ALLERGIES_INCLUDED with the allergies, or no allergies',
    );
  });

  it("applies semantic checks only to a structurally valid request", () => {
    const result = validate(corrupted({ "prescriber.npi": "1234567890", "prescription.daysSupply": DELETE }));
    expectFailure(result, "MISSING_INFO", ["prescription.daysSupply"]);
    if (!result.ok) expect(result.description).not.toContain("prescriber.npi");
  });
});

// ---------------------------------------------------------------------------------------------------
// Precedence, several failures, the description

describe("validateTransferRequest: precedence and description", () => {
  it("MISSING_INFO wins over SPEC_MISMATCH, and both are named", () => {
    const result = validate(corrupted({ "prescription.dawCode": 12, "prescription.daysSupply": DELETE }));
    expectFailure(result, "MISSING_INFO", ["prescription.daysSupply", "prescription.dawCode"]);
    if (!result.ok) {
      expect(result.issues.find((i) => i.path === "prescription.dawCode")?.type).toBe("SPEC_MISMATCH");
    }
  });

  it("RX_EXPIRED wins over INVALID_INFO, and both are named", () => {
    const request = valid();
    request.prescription.expirationDate = iso(NOW.getTime() - DAY);
    request.prescriber.npi = invalidNpi(request.prescriber.npi);
    request.prescription.refillsRemaining = 0;
    const result = validate(request);
    expectFailure(result, "RX_EXPIRED", [
      "prescription.expirationDate",
      "prescriber.npi",
      "prescription.refillsRemaining",
    ]);
  });

  it("names every failing field, in the style of the interface", () => {
    const result = validate(
      corrupted({ "prescription.daysSupply": DELETE, "patient.name.lastName": null, "prescription.dawCode": 12 }),
    );
    expect(result).toMatchObject({
      ok: false,
      type: "MISSING_INFO",
      description:
        "patient.name.lastName must not be null; prescription.daysSupply is required; prescription.dawCode must be an integer from 0 to 9",
    });
  });

  it("names array elements by index", () => {
    const result = validate(withValue("patient.allergyDetails.allergies", ["Penicillin", "Latex", 3]));
    expect(result).toMatchObject({
      type: "SPEC_MISMATCH",
      description: "patient.allergyDetails.allergies[2] must be a string",
    });
  });

  it("caps the description and counts the rest", () => {
    const result = validate(corrupted(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra${i}`, i]))));
    if (result.ok) throw new Error("expected an error");
    expect(result.issues).toHaveLength(30);
    expect(result.description.split("; ")).toHaveLength(MAX_DESCRIBED_ISSUES + 1);
    expect(result.description).toMatch(/; and 10 more problems$/);
  });

  it("never quotes the values it rejects", () => {
    const secret = "Zebulonsecretvalue";
    const result = validate(
      corrupted({
        "patient.name.lastName": secret.repeat(3), // too long
        "patient.address.postalCode": secret, // pattern
        "patient.gender": secret, // enum
        "patient.dateOfBirth": secret, // date format
        "prescription.faxImageURL": `https://${secret}`, // URL
        [`${secret} lives at 1 Main St`]: 1, // an unknown key that is not a field name
      }),
    );
    if (result.ok) throw new Error("expected an error");
    expect(result.issues).toHaveLength(6);
    expect(result.description.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(result.description).toContain("[?] is not an allowed field");
  });

  it("never quotes values in semantic failures either", () => {
    const request = valid();
    request.prescriber.npi = "1234567890";
    request.patient.address.state = "ZQ";
    const result = validate(request);
    if (result.ok) throw new Error("expected an error");
    expect(result.description).not.toContain("1234567890");
    expect(result.description).not.toContain("ZQ");
  });

  it("formats paths", () => {
    expect(formatPath(["patient", "allergyDetails", "allergies", 2])).toBe("patient.allergyDetails.allergies[2]");
    expect(formatPath(["extra"])).toBe("extra");
    expect(formatPath([])).toBe("");
    expect(formatPath(["patient", "has space"])).toBe("patient[?]");
  });
});

describe("validateTransferRequest: text PostgreSQL cannot store", () => {
  it("refuses a NUL and a lone surrogate as SPEC_MISMATCH, naming each field", () => {
    const result = validate(
      corrupted({ "patient.name.lastName": "Al\u0000varez", "prescription.sig": "Take \ud800 daily" }),
    );
    expect(result).toMatchObject({
      ok: false,
      type: "SPEC_MISMATCH",
      description:
        "patient.name.lastName contains a NUL character; prescription.sig is not valid Unicode (unpaired surrogate)",
    });
  });

  it("reports the NUL rather than the other checks the same value fails", () => {
    const result = validate(withValue("patient.address.postalCode", "1910\u0000"));
    expect(!result.ok && result.description).toBe("patient.address.postalCode contains a NUL character");
  });

  it("checks the strings of metadata's additional properties, at any depth, and their names", () => {
    const result = validate(
      corrupted({ "metadata.senderSystem": { notes: ["ok", "\udc00"] }, "metadata.trace": "a\u0000" }),
    );
    expectFailure(result, "SPEC_MISMATCH", ["metadata.senderSystem.notes[1]", "metadata.trace"]);
    const named = validate(corrupted({ "metadata.bad\u0000key": "value" }));
    expect(named).toMatchObject({
      ok: false,
      type: "SPEC_MISMATCH",
      description: "metadata[?] has a name that contains a NUL character",
    });
  });

  it("refuses additional properties nested deeper than the limit", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 50; i++) deep = [deep];
    const result = validate(withValue("metadata.nested", deep));
    expect(result).toMatchObject({ ok: false, type: "SPEC_MISMATCH" });
    expect(!result.ok && result.description).toMatch(
      /^metadata\.nested(\[0\])+ is nested too deeply \(more than 32 levels\)$/,
    );
  });

  it("keeps MISSING_INFO first when a field is also missing", () => {
    const result = validate(corrupted({ "prescription.daysSupply": DELETE, "patient.name.firstName": "\u0000" }));
    expectFailure(result, "MISSING_INFO", ["prescription.daysSupply", "patient.name.firstName"]);
  });

  it("accepts astral characters, which are surrogate pairs in JavaScript", () => {
    expect(validate(withValue("patient.name.lastName", "Ōtomo 𠮷")).ok).toBe(true);
  });
});

describe("readRequestId", () => {
  it.each([
    [{ metadata: { requestID: "req_1" } }, "req_1"],
    [{ metadata: { requestID: "" } }, ""],
    [{ metadata: { requestID: 5 } }, ""],
    [{ metadata: null }, ""],
    [{ metadata: [] }, ""],
    [{}, ""],
    [null, ""],
    ["req_1", ""],
    [[{ metadata: { requestID: "req_1" } }], ""],
    [{ metadata: { requestID: "req\u0000" } }, ""],
    [{ metadata: { requestID: "req\ud800" } }, ""],
  ])("reads %j as %j", (body, expected) => {
    expect(readRequestId(body)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------------
// The fixtures and the response schema

describe("fixtures", () => {
  it("buildTransferRequest parses unchanged with the wire schema and carries valid identifiers", () => {
    const request = valid();
    expect(TransferRequestSchema.parse(request)).toEqual(request);
    expect(isValidNpi(request.prescriber.npi)).toBe(true);
    expect(isValidNpi(request.sendingPharmacy.npi)).toBe(true);
    expect(request.receivingPharmacy.npi).toBe(DEMO_PHARMACY_NPI);
    expect(request.sendingPharmacy.npi).toBe(DEMO_SENDING_NPI);
    for (const dea of [request.prescriber.dea, request.sendingPharmacy.dea, request.receivingPharmacy.dea]) {
      expect(dea !== null && isValidDea(dea)).toBe(true);
    }
  });

  it("is valid at the current time by default", () => {
    expect(
      validateTransferRequest(buildTransferRequest(), { storeNpis: new Set([DEMO_PHARMACY_NPI]), now: new Date() }).ok,
    ).toBe(true);
  });

  it("merges overrides deeply and lets null and arrays replace", () => {
    const request = buildTransferRequest(
      {
        patient: { name: { firstName: "Ana" }, contactInfo: null, allergyDetails: { allergies: ["Latex"] } },
        primaryInsurance: null,
        secondaryInsurance: { planName: "Supplemental Rx", personCode: "002" },
      },
      { now: NOW, receivingNpi: "1558598797" },
    );
    expect(request.patient.name).toMatchObject({ firstName: "Ana", lastName: "Alvarez" });
    expect(request.patient.contactInfo).toBeNull();
    expect(request.patient.allergyDetails.allergies).toEqual(["Latex"]);
    expect(request.primaryInsurance).toBeNull();
    expect(request.secondaryInsurance).toMatchObject({ planName: "Supplemental Rx", personCode: "002", bin: "004336" });
    expect(request.receivingPharmacy.npi).toBe("1558598797");
    expect(validateTransferRequest(request, { ...CTX, storeNpis: new Set(["1558598797"]) })).toMatchObject({
      ok: true,
    });
  });

  it("does not share objects between calls", () => {
    const a = valid();
    a.patient.allergyDetails.allergies.push("Latex");
    expect(valid().patient.allergyDetails.allergies).toEqual(["Penicillin", "Sulfa drugs"]);
  });

  it("randomTransferRequest makes distinct, valid, varied requests", () => {
    let seed = 42;
    const rng = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const requests = Array.from({ length: 500 }, () =>
      randomTransferRequest(rng, { now: NOW, receivingNpi: DEMO_PHARMACY_NPI }),
    );
    for (const request of requests) {
      const result = validate(request);
      expect(result.ok ? "ok" : result.description).toBe("ok");
      expect(TransferRequestSchema.parse(request)).toEqual(request);
    }
    const distinct = (f: (r: TransferRequest) => unknown) => new Set(requests.map(f)).size;
    expect(distinct((r) => r.metadata.requestID)).toBe(500);
    expect(distinct((r) => r.prescription.rxNumber)).toBe(500);
    expect(distinct((r) => r.prescription.medicationName)).toBeGreaterThan(8);
    expect(distinct((r) => r.patient.name.lastName)).toBeGreaterThan(15);
    expect(distinct((r) => r.patient.allergyDetails.allergiesDescriptor)).toBe(3);
    expect(requests.some((r) => r.primaryInsurance === null)).toBe(true);
    expect(requests.some((r) => r.secondaryInsurance !== null)).toBe(true);
    expect(requests.some((r) => r.prescription.firstFilledDate === null)).toBe(true);
    expect(requests.some((r) => r.prescription.dispensedNDC !== null)).toBe(true);
  });

  it("randomTransferRequest is reproducible from the rng", () => {
    const seeded = () => {
      let seed = 7;
      return () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
    };
    expect(randomTransferRequest(seeded(), { now: NOW })).toEqual(randomTransferRequest(seeded(), { now: NOW }));
  });
});

describe("TransferResponseSchema", () => {
  const metadata = (responseType: "RECEIVED" | "CONFIRMED" | "ERROR") => ({
    responseType,
    referenceID: "trf_1",
    responseID: "rsp_1",
    responseTimestamp: "2025-06-02T14:05:00Z",
  });
  const error = { type: "MISSING_INFO", description: "prescription.daysSupply is required" };

  it.each([
    ["RECEIVED", {}, true],
    ["RECEIVED", { error }, false],
    ["CONFIRMED", {}, false],
    ["CONFIRMED", { prescription: valid().prescription }, true],
    ["ERROR", {}, false],
    ["ERROR", { error }, true],
    ["ERROR", { error, prescription: valid().prescription }, false],
  ] as const)("%s with %j → valid: %s", (type, extra, expected) => {
    const body = { requestID: "req_1", metadata: metadata(type), ...extra };
    expect(TransferResponseSchema.safeParse(body).success).toBe(expected);
  });

  it("allows additional metadata (localRxNumber) and an empty requestID", () => {
    const body = {
      requestID: "",
      metadata: { ...metadata("CONFIRMED"), localRxNumber: "6120457" },
      prescription: valid().prescription,
    };
    expect(TransferResponseSchema.parse(body).metadata).toMatchObject({ localRxNumber: "6120457" });
  });
});
