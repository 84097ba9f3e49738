import { describe, expect, it } from "vitest";
import { whyNotImmediate } from "@/lib/immediate-confirm/qualify-transfer";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";

const NOW = new Date("2026-06-01T12:00:00Z");

function why(
  change?: (r: TransferRequest) => void,
  opts: { allowListedAllergies?: boolean; gabapentinV?: boolean } = {},
) {
  const request = structuredClone(buildTransferRequest({}, { now: NOW }));
  request.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
  change?.(request);
  const rules = opts.gabapentinV
    ? { ...DEFAULT_STORE_RULES, extraSchedules: [{ substance: "gabapentin", schedule: "V" as const }] }
    : DEFAULT_STORE_RULES;
  return whyNotImmediate({ request, rules, allowListedAllergies: opts.allowListedAllergies ?? false, now: NOW });
}

const drug = (name: string, strength: string) => (r: TransferRequest) => {
  r.prescription.medicationName = name;
  r.prescription.drugStrength = strength;
};

describe("whyNotImmediate", () => {
  it("atorvastatin with no known allergies and clean checks qualifies", () => {
    expect(why()).toBeNull();
  });

  it("controlled substances never qualify: oxycodone C-II, alprazolam C-IV, and the store's own schedules", () => {
    expect(why(drug("Oxycodone Hydrochloride", "5 mg"))).toMatch(/controlled substance \(C-II\)/);
    expect(why(drug("Alprazolam", "0.5 mg"))).toMatch(/controlled substance \(C-IV\)/);
    expect(why(drug("Gabapentin", "300 mg"))).toBeNull();
    expect(why(drug("Gabapentin", "300 mg"), { gabapentinV: true })).toMatch(/controlled substance \(C-V\)/);
  });

  it("an unknown drug never qualifies", () => {
    expect(why(drug("Zorvatinex", "10 mg"))).toMatch(/not recognised/);
  });

  it("listed allergies need the option; with it, amoxicillin and a penicillin allergy is an allergy signal", () => {
    const penicillin = (r: TransferRequest) => {
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
    };
    expect(why(penicillin)).toMatch(/listed allergies/);
    expect(why(penicillin, { allowListedAllergies: true })).toBeNull();
    const amoxicillin = (r: TransferRequest) => {
      penicillin(r);
      drug("Amoxicillin", "500 mg")(r);
      r.prescription.drugForm = "Capsule";
    };
    expect(why(amoxicillin, { allowListedAllergies: true })).toMatch(/^allergy signal/);
    const notAvailable = (r: TransferRequest) => {
      r.patient.allergyDetails = { allergiesDescriptor: "NOT_AVAILABLE", allergies: [] };
    };
    expect(why(notAvailable, { allowListedAllergies: true })).toMatch(/no allergy information/);
  });

  it("a warning on any automated check: quantity dispensed above quantity written", () => {
    expect(
      why((r) => {
        r.prescription.quantityDispensed = r.prescription.quantityWritten + 1;
      }),
    ).toMatch(/warning|failed/);
  });

  it("no refills left after fills: refused", () => {
    expect(
      why((r) => {
        r.prescription.refillsRemaining = 0;
      }),
    ).toMatch(/Refill arithmetic: failed/);
  });
});
