import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_RULES, type StoreRulesInZone } from "@/lib/stores/store-rules";
import { classifyTransfer } from "@/lib/transfers/intake/classify-transfer";
import { calendarDayIn } from "@/lib/interface";
import { reviewDrug, reviewChecks } from "@/lib/transfers/review";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";

const NOW = new Date("2026-06-01T12:00:00Z");
const DAY = 86_400_000;
const OPTIONS = { earlyRefillAllowance: 0.25 };

function request(change: (r: TransferRequest) => void = () => {}): TransferRequest {
  const r = structuredClone(buildTransferRequest({}, { now: NOW }));
  change(r);
  return r;
}

const flaggedIds = (r: TransferRequest, rules: StoreRulesInZone, now: Date) =>
  reviewChecks(r, reviewDrug(r, rules, now), OPTIONS)
    .filter((c) => c.status === "warn" || c.status === "fail")
    .map((c) => c.id);

const CASES: Record<string, (r: TransferRequest) => void> = {
  atorvastatin: () => {},
  "alprazolam refill": (r) => (r.prescription.medicationName = "Alprazolam"),
  "zolpidem, 11 refills written": (r) => {
    r.prescription.medicationName = "Zolpidem Tartrate";
    r.prescription.refillsAuthorized = 12;
    r.prescription.refillsRemaining = 10;
  },
  oxycodone: (r) => (r.prescription.medicationName = "Oxycodone HCl"),
  "cefdinir, penicillin allergy": (r) => (r.prescription.medicationName = "Cefdinir"),
  "lisinopril expiring in 50 days": (r) => {
    r.prescription.medicationName = "Lisinopril";
    r.prescription.expirationDate = new Date(NOW.getTime() + 50 * DAY).toISOString();
  },
  "metformin, sender's date past the legal expiry": (r) => {
    r.prescription.medicationName = "Metformin HCl";
    r.prescription.expirationDate = new Date(Date.parse(r.prescription.writtenDate) + 500 * DAY).toISOString();
  },
};

describe("classifyTransfer's stored checks", () => {
  for (const [label, change] of Object.entries(CASES)) {
    it(`${label}: flagged ids, and the warning day, agree with the checks on every later day`, () => {
      const r = request(change);
      for (const rules of [DEFAULT_STORE_RULES, { ...DEFAULT_STORE_RULES, timeZone: "America/Chicago" }]) {
        const c = classifyTransfer(r, rules, NOW, OPTIONS);
        const today = calendarDayIn(NOW, rules.timeZone);
        const dated = c.warnsFrom !== null && c.warnsFrom <= today ? ["expiry"] : [];
        expect([...c.checkFlags, ...dated].sort()).toEqual(flaggedIds(r, rules, NOW).sort());
        for (let days = 0; days <= 420; days += 1) {
          const now = new Date(NOW.getTime() + days * DAY);
          const storedSaysFlagged =
            c.checkFlags.length > 0 || (c.warnsFrom !== null && c.warnsFrom <= calendarDayIn(now, rules.timeZone));
          expect(storedSaysFlagged, `${rules.timeZone} +${days} days`).toBe(flaggedIds(r, rules, now).length > 0);
        }
      }
    });
  }

  it("keeps the drug columns as before: schedule, allergy alert, substance key", () => {
    expect(classifyTransfer(request(CASES.oxycodone), DEFAULT_STORE_RULES, NOW, OPTIONS)).toMatchObject({
      drugSchedule: "II",
      allergyAlert: null,
      substanceKey: "oxycodone",
    });
    const amoxicillin = classifyTransfer(
      request((r) => (r.prescription.medicationName = "Amoxicillin")),
      DEFAULT_STORE_RULES,
      NOW,
      OPTIONS,
    );
    expect(amoxicillin).toMatchObject({ drugSchedule: "none", allergyAlert: "danger" });
    expect(amoxicillin.checkFlags).toContain("allergy");
    const unknown = classifyTransfer(
      request((r) => (r.prescription.medicationName = "Zyxoflamide")),
      DEFAULT_STORE_RULES,
      NOW,
      OPTIONS,
    );
    expect(unknown).toMatchObject({ drugSchedule: "unknown", checkFlags: ["schedule"] });
  });

  it("a clean transfer warns from 29 days before the sender's expiration date, on the store's day", () => {
    const c = classifyTransfer(request(CASES["lisinopril expiring in 50 days"]), DEFAULT_STORE_RULES, NOW, OPTIONS);
    expect(c).toMatchObject({ checkFlags: [], warnsFrom: "2026-06-22" });
  });
});
