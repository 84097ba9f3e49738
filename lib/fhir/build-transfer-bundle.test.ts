// Every Bundle we hand to a dispensing system is valid against the official FHIR R4 JSON schema, for a
// property-based sample of valid transfers; and the mapping says what the docs say it says.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Bundle, Coverage, MedicationRequest, Resource } from "@medplum/fhirtypes";
import { buildTransferBundle } from "@/lib/fhir/build-transfer-bundle";
import { SYSTEMS } from "@/lib/fhir/systems";
import { buildTransferRequest, DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { randomTransferRequest } from "@/lib/demo/random-transfer-request";
import { validateTransferRequest, ALLERGIES_DESCRIPTORS, type TransferRequest } from "@/lib/interface";
import { fhirSchemaErrors } from "@/tests/support/fhir-schema";

const NOW = new Date("2026-06-02T14:05:00Z");

function seededRng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Valid transfers, varied where the mapping branches: allergies, insurance, DAW, local Rx number. */
const approvedTransfers = fc
  .record({
    seed: fc.integer(),
    descriptor: fc.constantFrom(...ALLERGIES_DESCRIPTORS),
    allergies: fc.array(fc.constantFrom("Penicillin", "Sulfa drugs", "Latex", "Codeine — hives"), {
      minLength: 1,
      maxLength: 3,
    }),
    dawCode: fc.option(fc.integer({ min: 0, max: 9 })),
    canSubstitute: fc.boolean(),
    primary: fc.boolean(),
    secondary: fc.boolean(),
    localRxNumber: fc.option(fc.stringMatching(/^[0-9]{4,9}$/)),
    drugSchedule: fc.constantFrom(null, "CIII", "CIV", "CV"),
  })
  .map((p) => {
    const base = randomTransferRequest(seededRng(p.seed), { now: NOW });
    const request: TransferRequest = {
      ...base,
      patient: {
        ...base.patient,
        allergyDetails: {
          allergiesDescriptor: p.descriptor,
          allergies: p.descriptor === "KNOWN_ALLERGIES_INCLUDED" ? p.allergies : [],
        },
      },
      prescription: { ...base.prescription, dawCode: p.dawCode, canSubstitute: p.canSubstitute },
      primaryInsurance: p.primary
        ? (base.primaryInsurance ?? buildTransferRequest({}, { now: NOW }).primaryInsurance)
        : null,
      secondaryInsurance:
        p.primary && p.secondary
          ? (base.secondaryInsurance ??
            buildTransferRequest({ secondaryInsurance: {} }, { now: NOW }).secondaryInsurance)
          : null,
    };
    return {
      referenceID: `trf_${(p.seed >>> 0).toString(36)}`,
      request,
      localRxNumber: p.localRxNumber,
      approvedAt: NOW,
      drugSchedule: p.drugSchedule,
    };
  });

const resources = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource as Resource);
const one = <T extends Resource>(bundle: Bundle, type: T["resourceType"]) =>
  resources(bundle).find((r) => r.resourceType === type) as T;

describe("the FHIR R4 Bundle of an approved transfer", () => {
  it("is valid against the official R4 JSON schema for a property-based sample of valid transfers", () => {
    fc.assert(
      fc.property(approvedTransfers, (transfer) => {
        const valid = validateTransferRequest(transfer.request, {
          storeNpis: new Set([transfer.request.receivingPharmacy.npi, DEMO_PHARMACY_NPI]),
          now: NOW,
        });
        expect(valid.ok, JSON.stringify(valid)).toBe(true);
        const bundle = buildTransferBundle(transfer);
        expect(fhirSchemaErrors(bundle)).toEqual([]);
        expect(bundle.type).toBe("transaction");
        // Every reference inside resolves to an entry of the Bundle.
        const fullUrls = new Set(bundle.entry!.map((e) => e.fullUrl));
        const refs = JSON.stringify(bundle).match(/"reference":"([^"]+)"/g) ?? [];
        for (const r of refs) expect(fullUrls.has(r.slice(13, -1))).toBe(true);
      }),
      { numRuns: 100 },
    );
  }, 180_000);

  it("the schema validator does refuse a broken Bundle (the check can fail)", () => {
    const bundle = buildTransferBundle({
      referenceID: "trf_x",
      request: buildTransferRequest({}, { now: NOW }),
      localRxNumber: "77",
      approvedAt: NOW,
      drugSchedule: null,
    });
    const broken = structuredClone(bundle) as unknown as { entry: { resource: Record<string, unknown> }[] };
    broken.entry.find((e) => e.resource.resourceType === "MedicationRequest")!.resource.status = 7;
    expect(fhirSchemaErrors(broken).length).toBeGreaterThan(0);
    expect(fhirSchemaErrors({ ...bundle, type: "not-a-bundle-type" }).length).toBeGreaterThan(0);
  }, 60_000);

  it("converts refills, substitution, dates, identifiers and coverage as documented", () => {
    const request = buildTransferRequest(
      {
        prescription: { refillsAuthorized: 4, refillsRemaining: 2, dawCode: 1, canSubstitute: true },
        primaryInsurance: { bin: "610014", pcn: "ADV", groupNumber: "GRP1", personCode: "002", cardHolderID: "M123" },
      },
      { now: NOW },
    );
    const bundle = buildTransferBundle({
      referenceID: "trf_abc",
      request,
      localRxNumber: "900123",
      approvedAt: NOW,
      drugSchedule: null,
    });
    const mr = one<MedicationRequest>(bundle, "MedicationRequest");
    // refillsAuthorized counts the first fill; numberOfRepeatsAllowed does not.
    expect(mr.dispenseRequest?.numberOfRepeatsAllowed).toBe(3);
    expect(mr.note?.[0]?.text).toContain("Valid refills remaining: 2.");
    expect(mr.note?.[0]?.text).not.toContain("transferring pharmacy sent");
    expect(mr.substitution?.allowedBoolean).toBe(false); // DAW 1 forbids it whatever canSubstitute says
    expect(mr.authoredOn).toBe(request.prescription.writtenDate);
    expect(mr.dosageInstruction?.[0]?.text).toBe(request.prescription.sig);
    expect(mr.medicationCodeableConcept?.coding?.[0]).toMatchObject({
      system: SYSTEMS.ndc,
      code: request.prescription.prescribedNDC,
    });
    expect(mr.identifier?.map((i) => i.value)).toEqual([request.prescription.rxNumber, "900123", "trf_abc"]);
    const coverage = one<Coverage>(bundle, "Coverage");
    expect(coverage.subscriberId).toBe("M123");
    expect(coverage.dependent).toBe("002");
    expect(coverage.class?.map((c) => [c.type.coding?.[0]?.code, c.value])).toEqual([
      ["plan", request.primaryInsurance!.planName],
      ["rxbin", "610014"],
      ["rxpcn", "ADV"],
      ["rxgroup", "GRP1"],
    ]);
    // Same transfer, same Bundle: a dispensing system can post it twice without two sets of resources.
    expect(
      buildTransferBundle({
        referenceID: "trf_abc",
        request,
        localRxNumber: "900123",
        approvedAt: NOW,
        drugSchedule: null,
      }),
    ).toEqual(bundle);
  });

  it("carries the lawful refill count for Schedule III/IV, with what the sender sent in the note, and stays valid R4", () => {
    // Clonazepam (C-IV) written with 11 refills after the first fill, 1 used: federal law allows 5, so 4 remain.
    const request = buildTransferRequest(
      { prescription: { medicationName: "Clonazepam", refillsAuthorized: 12, refillsRemaining: 10 } },
      { now: NOW },
    );
    const approved = { referenceID: "trf_cl", request, localRxNumber: null, approvedAt: NOW, drugSchedule: "CIV" };
    const bundle = buildTransferBundle(approved);
    expect(fhirSchemaErrors(bundle)).toEqual([]);
    const mr = one<MedicationRequest>(bundle, "MedicationRequest");
    expect(mr.dispenseRequest?.numberOfRepeatsAllowed).toBe(5);
    expect(mr.note?.[0]?.text).toContain("Valid refills remaining: 4.");
    expect(mr.note?.[0]?.text).toContain(
      "The transferring pharmacy sent 11 refills after the first fill and 10 remaining; federal law allows at most 5 refills of this Schedule IV prescription (21 CFR 1306.22), so 4 lawfully remain.",
    );
    // Not controlled: the sender's numbers are the lawful ones.
    const plain = one<MedicationRequest>(buildTransferBundle({ ...approved, drugSchedule: null }), "MedicationRequest");
    expect(plain.dispenseRequest?.numberOfRepeatsAllowed).toBe(11);
    expect(plain.note?.[0]?.text).toContain("Valid refills remaining: 10.");
  });

  it("says 'no information' for NOT_AVAILABLE allergies, and 'no known allergy' for NO_KNOWN_ALLERGIES", () => {
    const codeOf = (descriptor: (typeof ALLERGIES_DESCRIPTORS)[number]) => {
      const request = buildTransferRequest(
        { patient: { allergyDetails: { allergiesDescriptor: descriptor, allergies: [] } } },
        { now: NOW },
      );
      const bundle = buildTransferBundle({
        referenceID: "trf_a",
        request,
        localRxNumber: null,
        approvedAt: NOW,
        drugSchedule: null,
      });
      return resources(bundle)
        .filter((r) => r.resourceType === "AllergyIntolerance")
        .map((r) => (r as { code?: { coding?: { code?: string }[] } }).code?.coding?.[0]?.code);
    };
    expect(codeOf("NOT_AVAILABLE")).toEqual(["no-allergy-info"]);
    expect(codeOf("NO_KNOWN_ALLERGIES")).toEqual(["716186003"]);
    expect(codeOf("KNOWN_ALLERGIES_INCLUDED")).toEqual([]);
  });
});
