import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { reviewDrug } from "@/lib/transfers/review/drug-review";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { countProblems, reviewChecks } from "@/lib/transfers/review/review-checks";
import { dawConflict, explainDaw } from "@/lib/transfers/review/review-checks-product";
import type { TransferRequest } from "@/lib/interface";

const NOW = new Date("2026-06-01T12:00:00Z");
const DAY = 86_400_000;

function checksOf(change?: (r: TransferRequest) => void) {
  const request = structuredClone(buildTransferRequest({}, { now: NOW }));
  change?.(request);
  return Object.fromEntries(reviewChecks(request, reviewDrug(request, DEFAULT_STORE_RULES, NOW)).map((c) => [c.id, c]));
}

describe("review checks", () => {
  it("a clean fixture (atorvastatin, with a prescriber DEA number) passes everything: a DEA number is not a flag", () => {
    const checks = checksOf();
    expect(Object.keys(checks)).toEqual([
      "schedule",
      "allergy",
      "npi",
      "dea",
      "expiry",
      "refills",
      "fill-history",
      "next-fill",
      "quantity",
      "daw",
      "ndc",
    ]);
    expect(checks.schedule!.status).toBe("pass");
    expect(checks.schedule!.detail).toMatch(/not a federally controlled/i);
    expect(countProblems(Object.values(checks))).toEqual({ warnings: 0, failures: 0 });
    // In a pharmacist's words: the algorithm's name is for the API docs.
    expect(checks.npi!.detail).toContain("check digit is right");
    expect(checks.npi!.detail).not.toMatch(/Luhn|80840/);
    expect(checks.refills!.detail).toMatch(/4 of 5 refills after the first fill remain \(6 authorized/);
  });

  it("fails a wrong NPI or DEA check digit, and warns when the DEA initial is not the prescriber's", () => {
    expect(checksOf((r) => (r.prescriber.npi = "1234567890")).npi!.status).toBe("fail");
    expect(checksOf((r) => (r.prescriber.dea = "AC1234560")).dea!.status).toBe("fail");
    const initial = checksOf((r) => (r.prescriber.name.lastName = "Zhou"));
    expect(initial.dea!.status).toBe("warn");
    expect(initial.dea!.detail).toContain("initial");
  });

  it("says how many days are left, warns within 30 days and fails once expired", () => {
    expect(checksOf().expiry!.detail).toMatch(/in \d+ days/);
    expect(
      checksOf((r) => (r.prescription.expirationDate = new Date(NOW.getTime() + 10 * DAY).toISOString())).expiry!
        .status,
    ).toBe("warn");
    const expired = checksOf((r) => (r.prescription.expirationDate = new Date(NOW.getTime() - DAY).toISOString()));
    expect(expired.expiry!.status).toBe("fail");
    expect(expired.expiry!.detail).toContain("cannot be transferred");
  });

  it("checks refill arithmetic: refillsAuthorized counts the first fill", () => {
    expect(checksOf((r) => (r.prescription.refillsRemaining = 6)).refills!.status).toBe("fail");
    expect(checksOf((r) => (r.prescription.refillsRemaining = 0)).refills!.status).toBe("fail");
    const never = checksOf((r) => {
      r.prescription.firstFilledDate = null;
      r.prescription.lastFilledDate = null;
      r.prescription.refillsRemaining = 5;
    });
    expect(never.refills!.status).toBe("pass");
    expect(never.refills!.detail).toContain("Never filled");
  });

  it("compares quantity with days supply and the written quantity", () => {
    expect(checksOf((r) => (r.prescription.quantityDispensed = 60)).quantity!.status).toBe("warn");
    const many = checksOf((r) => {
      r.prescription.quantityWritten = 300;
      r.prescription.quantityDispensed = 300;
    });
    expect(many.quantity!.status).toBe("warn");
    expect(many.quantity!.detail).toContain("10 tablets a day");
    const liquid = checksOf((r) => {
      r.prescription.drugForm = "Oral solution";
      r.prescription.quantityWritten = 300;
      r.prescription.quantityDispensed = 300;
    });
    expect(liquid.quantity!.status).toBe("pass");
  });

  it("explains DAW codes and flags a conflict with canSubstitute", () => {
    expect(explainDaw(1)).toBe("1 – Substitution not allowed by prescriber");
    expect(explainDaw(null)).toBe("Not given");
    expect(dawConflict(1, true)).toContain("forbids substitution");
    expect(dawConflict(0, false)).toContain("allows substitution");
    expect(dawConflict(2, false)).toBeNull();
    expect(checksOf((r) => (r.prescription.dawCode = 7)).daw!.status).toBe("warn");
    expect(checksOf((r) => (r.prescription.dawCode = null)).daw!.status).toBe("info");
  });

  it("warns when the dispensed NDC differs from the prescribed one", () => {
    expect(checksOf((r) => (r.prescription.dispensedNDC = "00093505601")).ndc!.status).toBe("warn");
    expect(checksOf().ndc!.detail).toContain("as prescribed");
  });

  it("shows the schedule from the drug: C-II fails, III-V is a note, an unknown drug is a warning", () => {
    const oxy = checksOf((r) => (r.prescription.medicationName = "Oxycodone HCl"));
    expect(oxy.schedule).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/^C-II: .*NCPDP SCRIPT 2022011/),
    });
    const zolpidem = checksOf((r) => (r.prescription.medicationName = "Zolpidem Tartrate"));
    expect(zolpidem.schedule).toMatchObject({ status: "info", detail: expect.stringMatching(/^C-IV: .*1306\.25/) });
    expect(zolpidem["controlled-refills"]).toMatchObject({ status: "pass" });
    expect(checksOf((r) => (r.prescription.medicationName = "Zyxoflamide")).schedule!.status).toBe("warn");
  });

  it("fails a controlled drug without a prescriber DEA number; a DEA number on a non-controlled drug is no flag", () => {
    const noDea = checksOf((r) => {
      r.prescription.medicationName = "Alprazolam";
      r.prescriber.dea = null;
    });
    expect(noDea.dea).toMatchObject({ status: "fail", detail: expect.stringContaining("1306.05") });
    expect(checksOf((r) => (r.prescriber.dea = null)).dea!.status).toBe("pass");
  });

  it("says expiry once: the stricter of the legal expiry and the sender's date decides", () => {
    expect(checksOf().expiry!.status).toBe("pass");
    expect(checksOf().expiry!.detail).toMatch(/the sender's expiration date is .*; the legal expiry is/);
    const later = checksOf(
      (r) =>
        (r.prescription.expirationDate = new Date(Date.parse(r.prescription.writtenDate) + 500 * DAY).toISOString()),
    );
    expect(later.expiry).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(
        /^Valid only until \d{4}-\d{2}-\d{2}: the legal expiry is .*, earlier than the sender's expiration date/,
      ),
    });
  });

  it("compares the legal expiry with the sender's date on the same calendar, whatever the hour", () => {
    // Written and expiring at 19:30 in New York, 12 months apart: on a UTC store's calendar both fall a day
    // later, as the sender wrote them both the same day of the month: either way the two agree.
    for (const hour of ["00:30", "04:59", "05:00", "19:30", "23:59"]) {
      const now = new Date(`2026-12-01T${hour}:00Z`);
      const request = structuredClone(buildTransferRequest({}, { now }));
      request.prescription.writtenDate = "2026-10-18T19:30:00-05:00";
      request.prescription.expirationDate = "2027-10-18T19:30:00-05:00";
      const checks = reviewChecks(request, reviewDrug(request, DEFAULT_STORE_RULES, now));
      expect(checks.find((c) => c.id === "expiry")!.status, hour).toBe("pass");
    }
  });

  it("cross-checks allergies: the drug's own class fails, cross-reactivity warns", () => {
    const amoxicillin = checksOf((r) => {
      r.prescription.medicationName = "Amoxicillin";
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
    });
    expect(amoxicillin.allergy).toMatchObject({
      status: "fail",
      detail: "Amoxicillin is a penicillin; the patient is allergic to Penicillin.",
    });
    const cefdinir = checksOf((r) => {
      r.prescription.medicationName = "Cefdinir";
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillins"] };
    });
    expect(cefdinir.allergy!.status).toBe("warn");
    expect(checksOf().allergy!.status).toBe("pass");
  });
});
