// The fill history, the refill-too-soon note, units from drugForm and a never-filled prescription, on the
// cases pharmacists met: omeprazole "filled 7 of 10 times" in two days, gabapentin filled 4 times in 8 days,
// a cream whose quantity is grams, and a prescription never filled.
import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { reviewDrug } from "@/lib/transfers/review/drug-review";
import { buildTransferRequest, formatDateTime } from "@/lib/demo/sample-transfers";
import { formatQuantity, quantityUnit } from "@/lib/transfers/review/quantity-units";
import { reviewChecks, type ReviewCheckOptions } from "@/lib/transfers/review/review-checks";
import type { TransferRequest } from "@/lib/interface";

const NOW = new Date("2026-11-23T12:00:00Z");
const DAY = 86_400_000;
const daysAgo = (n: number) => formatDateTime(NOW.getTime() - n * DAY, 0);

function checksOf(change: (r: TransferRequest) => void, options?: ReviewCheckOptions) {
  const request = structuredClone(buildTransferRequest({}, { now: NOW }));
  change(request);
  return Object.fromEntries(
    reviewChecks(request, reviewDrug(request, DEFAULT_STORE_RULES, NOW), options).map((c) => [c.id, c]),
  );
}

function drug(r: TransferRequest, name: string, form: string, daysSupply: number, quantity: number): void {
  Object.assign(r.prescription, {
    medicationName: name,
    drugForm: form,
    drugStrength: "20 mg",
    daysSupply,
    quantityWritten: quantity,
    quantityDispensed: quantity,
  });
}

describe("fill history", () => {
  it("omeprazole, 90-day supply, filled 7 of 10 times between two consecutive days: a warning", () => {
    const checks = checksOf((r) => {
      drug(r, "Omeprazole", "Capsule, delayed release", 90, 90);
      r.prescription.writtenDate = daysAgo(30);
      Object.assign(r.prescription, {
        refillsAuthorized: 10,
        refillsRemaining: 3,
        firstFilledDate: daysAgo(25),
        lastFilledDate: daysAgo(24),
      });
    });
    expect(checks["fill-history"]).toMatchObject({ status: "warn" });
    expect(checks["fill-history"]!.detail).toMatch(
      /Filled 7 times between .* \(1 day\), but 6 refills of a 90-day supply take at least 405 days, even each 25 % early: this fill history cannot be true/,
    );
  });

  it("gabapentin, 90-day supply, 4 fills in 8 days: a warning; 4 fills over 9 months: plausible", () => {
    const eightDays = checksOf((r) => {
      drug(r, "Gabapentin", "Capsule", 90, 270);
      r.prescription.writtenDate = daysAgo(10);
      Object.assign(r.prescription, {
        refillsAuthorized: 5,
        refillsRemaining: 1,
        firstFilledDate: daysAgo(9),
        lastFilledDate: daysAgo(1),
      });
    });
    expect(eightDays["fill-history"]).toMatchObject({ status: "warn" });
    expect(eightDays["fill-history"]!.detail).toMatch(
      /Filled 4 times .*\(8 days\), but 3 refills of a 90-day supply take at least 202.5 days/,
    );
    const plausible = checksOf((r) => {
      drug(r, "Gabapentin", "Capsule", 90, 270);
      r.prescription.writtenDate = daysAgo(300);
      Object.assign(r.prescription, {
        refillsAuthorized: 5,
        refillsRemaining: 1,
        firstFilledDate: daysAgo(290),
        lastFilledDate: daysAgo(20),
      });
    });
    expect(plausible["fill-history"]).toMatchObject({ status: "pass" });
    expect(plausible["fill-history"]!.detail).toMatch(/Filled 4 times .* plausible for a 90-day supply/);
  });

  it("the tolerance is the early-refill allowance: at 0 % the same history is a warning", () => {
    const history = (r: TransferRequest) => {
      drug(r, "Atorvastatin", "Tablet", 30, 30);
      r.prescription.writtenDate = daysAgo(100);
      Object.assign(r.prescription, {
        refillsAuthorized: 6,
        refillsRemaining: 3,
        firstFilledDate: daysAgo(80),
        lastFilledDate: daysAgo(25),
      }); // 2 refills in 55 days
    };
    expect(checksOf(history)["fill-history"]!.status).toBe("pass"); // needs 45 days at 25 %
    expect(checksOf(history, { earlyRefillAllowance: 0 })["fill-history"]!.status).toBe("warn"); // needs 60 days
  });
});

describe("refill too soon", () => {
  it("before last fill + days supply × (1 − allowance) it is a note with the due date; after, the date it has been due since", () => {
    const soon = checksOf((r) => {
      r.prescription.writtenDate = daysAgo(40);
      Object.assign(r.prescription, { daysSupply: 30, firstFilledDate: daysAgo(39), lastFilledDate: daysAgo(10) });
    });
    // 10 days ago + 22.5 days = 12.5 days from now
    expect(soon["next-fill"]).toMatchObject({ status: "info", title: "Refill too soon" });
    expect(soon["next-fill"]!.detail).toContain(
      `due on ${new Date(NOW.getTime() + 12.5 * DAY).toISOString().slice(0, 10)}`,
    );
    const due = checksOf(
      (r) => {
        r.prescription.writtenDate = daysAgo(60);
        Object.assign(r.prescription, { daysSupply: 30, firstFilledDate: daysAgo(59), lastFilledDate: daysAgo(29) });
      },
      { earlyRefillAllowance: 0.1 },
    );
    expect(due["next-fill"]).toMatchObject({ status: "pass" });
    expect(due["next-fill"]!.detail).toMatch(/due since .*refills allowed 10 % early/);
  });
});

describe("a prescription never filled", () => {
  it("is presented as never filled: no dispensed NDC, no 'dispensed as prescribed', no next-fill date", () => {
    const checks = checksOf((r) => {
      Object.assign(r.prescription, {
        firstFilledDate: null,
        lastFilledDate: null,
        refillsAuthorized: 6,
        refillsRemaining: 5,
      });
    });
    expect(checks["fill-history"]).toMatchObject({
      status: "pass",
      detail: "Never filled: the first fill and all 5 refills after it remain.",
    });
    expect(checks.ndc).toMatchObject({ title: "NDC to dispense", status: "pass" });
    expect(checks.ndc!.detail).not.toMatch(/Dispensed as prescribed/);
    expect(checks["next-fill"]).toBeUndefined();
  });

  it("with refills used but no fill date is a warning", () => {
    const checks = checksOf((r) =>
      Object.assign(r.prescription, {
        firstFilledDate: null,
        lastFilledDate: null,
        refillsAuthorized: 6,
        refillsRemaining: 2,
      }),
    );
    expect(checks["fill-history"]!.status).toBe("warn");
  });
});

describe("units from drugForm", () => {
  it("counts tablets and capsules, measures liquids in mL and creams in g, and counts inhalers", () => {
    expect(formatQuantity(30, "Tablet, film coated")).toBe("30 tablets");
    expect(formatQuantity(1, "Capsule")).toBe("1 capsule");
    expect(formatQuantity(150, "Oral suspension")).toBe("150 mL");
    expect(formatQuantity(80, "Cream")).toBe("80 g");
    expect(formatQuantity(2, "Inhalation aerosol")).toBe("2 inhalers");
    expect(formatQuantity(10, "Transdermal patch")).toBe("10 patches");
    expect(quantityUnit("Inhalation solution").singular).toBe("mL");
    expect(quantityUnit("Kit").plural).toBe("units");
  });

  it("a cream: grams per fill and no per-day arithmetic", () => {
    const checks = checksOf((r) => drug(r, "Triamcinolone Acetonide", "Cream", 30, 80));
    expect(checks.quantity!.detail).toBe("80 g per fill for 30 days (80 g written).");
    expect(checks.quantity!.detail).not.toMatch(/per day|a day/);
  });

  it("tablets: per fill and per day", () => {
    expect(checksOf((r) => drug(r, "Atorvastatin", "Tablet", 30, 30)).quantity!.detail).toBe(
      "30 tablets per fill for 30 days, 1 tablet a day (30 tablets written).",
    );
  });
});
