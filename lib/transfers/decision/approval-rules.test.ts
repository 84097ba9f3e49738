// The approval rules from the drug (approval-rules.ts over drug-review.ts), with real drug names: what the
// server refuses, with which rule, and what the decision records.
import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_RULES, type StoreRulesInZone } from "@/lib/stores/store-rules";
import { checkApproval } from "@/lib/transfers/decision/approval-rules";
import { ApprovalRefusedError } from "@/lib/transfers/decision/decision-errors";
import type { ApproveInput } from "@/lib/transfers/decision/decision-inputs";
import { reviewDrug } from "@/lib/transfers/review";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";

const NOW = new Date("2026-11-23T15:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function rx(
  name: string,
  opts: {
    writtenDaysAgo?: number;
    refillsAuthorized?: number;
    refillsRemaining?: number;
    filled?: boolean;
    allergies?: string[];
  } = {},
): TransferRequest {
  const r = structuredClone(buildTransferRequest({}, { now: NOW }));
  const written = NOW.getTime() - (opts.writtenDaysAgo ?? 30) * DAY;
  r.prescription.medicationName = name;
  r.prescription.writtenDate = iso(written);
  r.prescription.firstFilledDate = opts.filled === false ? null : iso(written + DAY);
  r.prescription.lastFilledDate = opts.filled === false ? null : iso(written + 2 * DAY);
  r.prescription.expirationDate = iso(NOW.getTime() + 90 * DAY);
  r.prescription.refillsAuthorized = opts.refillsAuthorized ?? 3;
  r.prescription.refillsRemaining = opts.refillsRemaining ?? 1;
  if (opts.allergies)
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: opts.allergies };
  return r;
}

function refusal(
  request: TransferRequest,
  input: ApproveInput = {},
  rules: StoreRulesInZone = DEFAULT_STORE_RULES,
): ApprovalRefusedError {
  try {
    checkApproval(request, rules, NOW, input);
  } catch (err) {
    if (err instanceof ApprovalRefusedError) return err;
    throw err;
  }
  throw new Error("approval was not refused");
}

describe("approval rules", () => {
  it("approves non-controlled drugs without a schedule or confirmation", () => {
    for (const name of ["Atorvastatin Calcium", "Lisinopril 10 mg", "Amoxicillin", "Gabapentin", "Metformin HCl ER"]) {
      const ok = checkApproval(rx(name), DEFAULT_STORE_RULES, NOW, {});
      expect(ok, name).toMatchObject({ drugSchedule: null, oneTimeTransferConfirmed: null });
      expect(ok.drug.scheduleBasis, name).toMatch(/^detected: .*, not controlled$/);
    }
  });

  it("refuses every Schedule II drug, whatever the spelling, with a prefilled rejection", () => {
    for (const name of [
      "Oxycodone HCl 5 mg",
      "Hydrocodone Bitartrate and Acetaminophen",
      "Adderall XR",
      "Methylphenidate ER",
      "Vyvanse",
      "Morphine Sulfate ER",
      "Fentanyl patch",
    ]) {
      const err = refusal(rx(name, { refillsAuthorized: 1, refillsRemaining: 0, filled: false }), {
        oneTimeTransferConfirmed: true,
      });
      expect(err.extensions.rule, name).toBe("schedule-ii");
      expect(err.code).toBe("refused");
      expect(err.extensions.reject?.errorType).toBe("OTHER");
    }
  });

  it("refuses Schedule III-IV past six months, but not Schedule V or a non-controlled drug of the same age", () => {
    expect(refusal(rx("Alprazolam", { writtenDaysAgo: 200 }), { oneTimeTransferConfirmed: true }).extensions.rule).toBe(
      "controlled-six-months",
    );
    expect(
      refusal(rx("Testosterone Cypionate", { writtenDaysAgo: 190 }), { oneTimeTransferConfirmed: true }).extensions
        .rule,
    ).toBe("controlled-six-months");
    expect(
      checkApproval(rx("Pregabalin", { writtenDaysAgo: 200 }), DEFAULT_STORE_RULES, NOW, {
        oneTimeTransferConfirmed: true,
      }).drugSchedule,
    ).toBe("CV");
    expect(
      checkApproval(rx("Sertraline", { writtenDaysAgo: 200 }), DEFAULT_STORE_RULES, NOW, {}).drugSchedule,
    ).toBeNull();
    // Six calendar months to the day is still valid.
    const edge = rx("Zolpidem Tartrate", { writtenDaysAgo: 0 });
    edge.prescription.writtenDate = "2026-05-23T09:00:00-05:00";
    expect(checkApproval(edge, DEFAULT_STORE_RULES, NOW, { oneTimeTransferConfirmed: true }).drug.legalExpiry).toBe(
      "2026-11-23",
    );
  });

  it("refuses Schedule III-IV with no lawful refill left, and counts a never-filled prescription's first fill", () => {
    const err = refusal(rx("Lorazepam", { refillsAuthorized: 9, refillsRemaining: 3 }), {
      oneTimeTransferConfirmed: true,
    });
    expect(err.extensions.rule).toBe("controlled-refills");
    expect(err.message).toMatch(/federal law allows 5; 5 used, 0 lawfully remain/);
    const capped = reviewDrug(
      rx("Clonazepam", { refillsAuthorized: 12, refillsRemaining: 10 }),
      DEFAULT_STORE_RULES,
      NOW,
    );
    expect(capped.refills).toMatchObject({
      writtenAfterFirst: 11,
      lawfulAfterFirst: 5,
      used: 1,
      lawfulRemaining: 4,
      capped: true,
    });
    // A never-filled prescription's first fill counts as remaining, but it cannot be transferred (below).
    const never = reviewDrug(
      rx("Tramadol", { refillsAuthorized: 1, refillsRemaining: 0, filled: false }),
      DEFAULT_STORE_RULES,
      NOW,
    );
    expect(never.refills).toMatchObject({ firstFillPending: true, lawfulRemaining: 1 });
    expect(never.blocks.map((b) => b.rule)).toEqual(["controlled-first-fill"]);
  });

  it("refuses the first fill of a Schedule III-V prescription, as it refuses Schedule II (1306.25(a), 1306.08(e)-(g))", () => {
    for (const [name, schedule] of [
      ["Alprazolam 0.5 mg", "IV"],
      ["Tramadol HCl 50 mg", "IV"],
      ["Zolpidem Tartrate 10 mg", "IV"],
      ["Testosterone Cypionate 200 mg/mL", "III"],
      ["Buprenorphine-Naloxone 8-2 mg", "III"],
      ["Pregabalin 75 mg", "V"],
      ["Lacosamide 100 mg", "V"],
    ] as const) {
      const err = refusal(rx(name, { refillsAuthorized: 3, refillsRemaining: 2, filled: false }), {
        oneTimeTransferConfirmed: true,
      });
      expect(err.extensions.rule, name).toBe("controlled-first-fill");
      expect(err.message, name).toMatch(new RegExp(`Schedule ${schedule} and this prescription was never filled`));
      expect(err.message, name).toContain("21 CFR 1306.25(a)");
      expect(err.message, name).toContain("1306.08(e)-(g)");
      expect(err.extensions.reject, name).toMatchObject({
        errorType: "OTHER",
        description: expect.stringMatching(/^prescription\.firstFilledDate: .* never filled; .*refill dispensing/),
      });
      // Filled once, the same prescription's refills transfer (with the one-time confirmation).
      expect(
        checkApproval(rx(name, { refillsAuthorized: 3, refillsRemaining: 1 }), DEFAULT_STORE_RULES, NOW, {
          oneTimeTransferConfirmed: true,
        }).drugSchedule,
        name,
      ).toBe(`C${schedule}`);
    }
    // A non-controlled prescription never filled still transfers.
    expect(
      checkApproval(rx("Sertraline 50 mg", { refillsRemaining: 2, filled: false }), DEFAULT_STORE_RULES, NOW, {})
        .drugSchedule,
    ).toBeNull();
  });

  it("needs the one-time-transfer confirmation for III-V, and records it", () => {
    for (const name of [
      "Buprenorphine and Naloxone",
      "Zolpidem 10 mg",
      "Guaifenesin-Codeine 100-10 mg/5 mL",
      "Acetaminophen-Codeine #3",
    ]) {
      expect(refusal(rx(name)).extensions.rule, name).toBe("one-time-transfer-unconfirmed");
      expect(
        checkApproval(rx(name), DEFAULT_STORE_RULES, NOW, { oneTimeTransferConfirmed: true }).oneTimeTransferConfirmed,
        name,
      ).toBe(true);
    }
  });

  it("takes the schedule from the drug: a stricter choice is recorded as the pharmacist's, a laxer one refused", () => {
    const stricter = checkApproval(rx("Gabapentin"), DEFAULT_STORE_RULES, NOW, {
      drugSchedule: "CV",
      oneTimeTransferConfirmed: true,
    });
    expect(stricter).toMatchObject({ drugSchedule: "CV" });
    expect(stricter.drug.scheduleBasis).toBe("set by pharmacist: C-V (detected: gabapentin, not controlled)");
    expect(refusal(rx("Alprazolam"), { drugSchedule: "CV", oneTimeTransferConfirmed: true }).extensions.rule).toBe(
      "schedule-below-detected",
    );
    expect(refusal(rx("Alprazolam"), { drugSchedule: null }).extensions.rule).toBe("schedule-below-detected");
    const same = checkApproval(rx("Alprazolam"), DEFAULT_STORE_RULES, NOW, {
      drugSchedule: "CIV",
      oneTimeTransferConfirmed: true,
    });
    expect(same.drug.scheduleBasis).toBe("detected: alprazolam, C-IV (federal)");
  });

  it("a drug the tables do not know needs an explicit schedule, and the rules of the chosen one then apply", () => {
    const unknown = rx("Zyxoflamide Forte", { writtenDaysAgo: 200 });
    expect(refusal(unknown).extensions.rule).toBe("schedule-required");
    expect(refusal(unknown, { drugSchedule: "CIV", oneTimeTransferConfirmed: true }).extensions.rule).toBe(
      "controlled-six-months",
    );
    expect(checkApproval(unknown, DEFAULT_STORE_RULES, NOW, { drugSchedule: null }).drug.scheduleBasis).toMatch(
      /^set by pharmacist: not controlled \(not found/,
    );
  });

  it("applies the store's state schedules and prescription validity", () => {
    const kentucky: StoreRulesInZone = {
      extraSchedules: [{ substance: "gabapentin", schedule: "V" }],
      rxExpiryMonths: 12,
      timeZone: "America/Kentucky/Louisville",
    };
    expect(refusal(rx("Gabapentin 300 mg"), {}, kentucky).extensions.rule).toBe("one-time-transfer-unconfirmed");
    expect(
      checkApproval(rx("Gabapentin 300 mg"), kentucky, NOW, { oneTimeTransferConfirmed: true }).drug.scheduleBasis,
    ).toBe("detected: gabapentin, C-V (state)");
    const short: StoreRulesInZone = { extraSchedules: [], rxExpiryMonths: 6, timeZone: "UTC" };
    expect(refusal(rx("Lisinopril", { writtenDaysAgo: 200 }), {}, short).extensions.rule).toBe("legal-expiry");
    expect(refusal(rx("Lisinopril", { writtenDaysAgo: 370 })).extensions.rule).toBe("legal-expiry");
  });

  it("keeps the allergy warnings with the approval; they do not block it", () => {
    const ok = checkApproval(rx("Amoxicillin 500 mg", { allergies: ["Penicillin"] }), DEFAULT_STORE_RULES, NOW, {});
    expect(ok.drug.allergyWarnings.map((w) => [w.severity, w.message])).toEqual([
      ["danger", "Amoxicillin is a penicillin; the patient is allergic to Penicillin"],
    ]);
    const cephalexin = checkApproval(rx("Cephalexin", { allergies: ["PCN"] }), DEFAULT_STORE_RULES, NOW, {});
    expect(cephalexin.drug.allergyWarnings[0]?.severity).toBe("caution");
  });
});
