// The drug's own rules at approval, enforced by the server over HTTP: Schedule II is refused, a
// Schedule III-IV prescription past six months or with no lawful refill is refused, III-V needs the one-time
// transfer confirmation, a drug the tables do not know needs the pharmacist's explicit schedule, a legally
// expired prescription is refused; each refusal is a 422 problem+json naming its rule, audited, and leaves the
// transfer pending. The queue shows and filters the schedule from the drug, never from a DEA number.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import type { QueuePage } from "@/lib/transfers/queue";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
let partner: CreatedPartner;
let pharmacist: TestUser;
let cookie: string;

type Problem = {
  status: number;
  rule?: string;
  reason?: string;
  detail: string;
  reject?: { errorType: string; description: string };
};

async function receive(change: (r: TransferRequest) => void): Promise<string> {
  const request = freshRequest(change);
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

function drug(name: string, strength = "10 mg"): (r: TransferRequest) => void {
  return (r) => {
    r.prescription.medicationName = name;
    r.prescription.drugStrength = strength;
  };
}

function writtenDaysAgo(
  days: number,
  refillsAuthorized: number,
  refillsRemaining: number,
): (r: TransferRequest) => void {
  return (r) => {
    const written = Date.now() - days * DAY_MS;
    r.prescription.writtenDate = iso(written);
    r.prescription.firstFilledDate = iso(written + DAY_MS);
    r.prescription.lastFilledDate = iso(Date.now() - 5 * DAY_MS);
    r.prescription.expirationDate = iso(Date.now() + 60 * DAY_MS);
    r.prescription.refillsAuthorized = refillsAuthorized;
    r.prescription.refillsRemaining = refillsRemaining;
  };
}

const approve = (id: string, body: Record<string, unknown> = {}) =>
  dashboardFetch<Problem>(baseUrl, `/api/transfers/${id}/approve`, { cookie, method: "POST", body });

async function expectRefused(id: string, body: Record<string, unknown>, rule: string): Promise<Problem> {
  const answer = await approve(id, body);
  expect(answer.status, answer.text).toBe(422);
  expect(answer.headers.get("content-type")).toContain("application/problem+json");
  expect(answer.body).toMatchObject({ status: 422, reason: "rule", rule });
  const transfer = await db().transfer.findUniqueOrThrow({ where: { id } });
  expect(transfer.status).toBe("RECEIVED");
  const audit = await db().auditEvent.findFirst({
    where: { transferId: id, action: "transfer.decision_refused" },
    orderBy: { id: "desc" },
  });
  expect(audit?.details).toMatchObject({ attempted: "approve", reason: "rule", rule });
  return answer.body;
}

beforeAll(async () => {
  partner = await createTestPartner("Drug rules");
  pharmacist = await createTestUser("pharmacist", "Riley Shaw, PharmD");
  cookie = await signedInCookie(baseUrl, pharmacist);
});

describe("approval rules from the drug", () => {
  it("refuses Schedule II (oxycodone) and offers the rejection to send instead", async () => {
    const id = await receive((r) => {
      drug("Oxycodone Hydrochloride", "5 mg")(r);
      r.prescription.refillsAuthorized = 1;
      r.prescription.refillsRemaining = 0;
      r.prescription.firstFilledDate = null;
      r.prescription.lastFilledDate = null;
    });
    const problem = await expectRefused(id, {}, "schedule-ii");
    expect(problem.detail).toMatch(/Schedule II.*NCPDP SCRIPT 2022011/);
    expect(problem.reject).toMatchObject({ errorType: "OTHER" });
    expect(problem.reject!.description).toMatch(/^prescription\.medicationName: Oxycodone is a Schedule II/);
    // Recording it as "not controlled" is not a way around it.
    await expectRefused(id, { drugSchedule: null }, "schedule-below-detected");
    const reject = await dashboardFetch(baseUrl, `/api/transfers/${id}/reject`, {
      cookie,
      method: "POST",
      body: problem.reject,
    });
    expect(reject.status, reject.text).toBe(200);
  });

  it("refuses Schedule IV (alprazolam) written more than 6 months ago, naming the rule and the numbers", async () => {
    const id = await receive((r) => {
      drug("Alprazolam", "0.5 mg")(r);
      writtenDaysAgo(200, 6, 3)(r);
    });
    const problem = await expectRefused(id, { oneTimeTransferConfirmed: true }, "controlled-six-months");
    expect(problem.detail).toMatch(/200 days ago.*void 6 months after it was written \(21 CFR 1306\.22\(a\)\)/);
    expect(problem.reject).toMatchObject({ errorType: "RX_EXPIRED" });
  });

  it("refuses Schedule IV when no refill lawfully remains (at most 5 after the first fill), and shows the lawful number", async () => {
    // 8 refills written after the first fill, 5 used: the law allows 5, so none remains although the sender says 3.
    const id = await receive((r) => {
      drug("Lorazepam", "1 mg")(r);
      writtenDaysAgo(100, 9, 3)(r);
    });
    const problem = await expectRefused(id, { oneTimeTransferConfirmed: true }, "controlled-refills");
    expect(problem.detail).toMatch(
      /8 refills were written after the first fill; federal law allows 5; 5 used, 0 lawfully remain/,
    );
    const review = await dashboardFetch<{ checks: { id: string; status: string; detail: string }[] }>(
      baseUrl,
      `/api/transfers/${id}`,
      { cookie },
    );
    expect(review.body.checks.find((c) => c.id === "controlled-refills")).toMatchObject({ status: "fail" });
  });

  it("needs the one-time-transfer confirmation for Schedule III-V and records it with how the schedule was found", async () => {
    const id = await receive((r) => {
      drug("Zolpidem Tartrate")(r);
      writtenDaysAgo(30, 3, 1)(r);
    });
    const problem = await expectRefused(id, {}, "one-time-transfer-unconfirmed");
    expect(problem.detail).toContain("21 CFR 1306.25(a)");
    const ok = await approve(id, { oneTimeTransferConfirmed: true });
    expect(ok.status, ok.text).toBe(200);
    const decision = await db().transferDecision.findUniqueOrThrow({ where: { transferId: id } });
    expect(decision).toMatchObject({
      drugSchedule: "CIV",
      scheduleBasis: "detected: zolpidem, C-IV (federal)",
      oneTimeTransferConfirmed: true,
    });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { transferId: id, action: "transfer.approved" } });
    expect(audit.details).toMatchObject({
      drugSchedule: "CIV",
      scheduleBasis: "detected: zolpidem, C-IV (federal)",
      oneTimeTransferConfirmed: true,
    });
  });

  it("a drug the tables do not know: shown as such, and the pharmacist must choose its schedule", async () => {
    const id = await receive(drug("Zyxoflamide Forte"));
    const review = await dashboardFetch<{ checks: { id: string; status: string; detail: string }[] }>(
      baseUrl,
      `/api/transfers/${id}`,
      { cookie },
    );
    expect(review.body.checks.find((c) => c.id === "schedule")).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/not found in the controlled-substance table/),
    });
    await expectRefused(id, {}, "schedule-required");
    const ok = await approve(id, { drugSchedule: null });
    expect(ok.status, ok.text).toBe(200);
    const decision = await db().transferDecision.findUniqueOrThrow({ where: { transferId: id } });
    expect(decision.drugSchedule).toBeNull();
    expect(decision.scheduleBasis).toBe(
      "set by pharmacist: not controlled (not found in the controlled-substance table)",
    );
  });

  it("refuses a prescription past its legal expiry although the sender's date is later (a failed check first)", async () => {
    const id = await receive((r) => {
      drug("Lisinopril")(r);
      writtenDaysAgo(380, 12, 2)(r);
    });
    const review = await dashboardFetch<{ checks: { id: string; status: string; detail: string }[] }>(
      baseUrl,
      `/api/transfers/${id}`,
      { cookie },
    );
    expect(review.body.checks.find((c) => c.id === "expiry")).toMatchObject({ status: "fail" });
    const problem = await expectRefused(id, {}, "legal-expiry");
    expect(problem.reject).toMatchObject({ errorType: "RX_EXPIRED" });
  });

  it("a store's state schedule applies on top of the federal table (gabapentin C-V)", async () => {
    const store = await db().store.findUniqueOrThrow({ where: { npi: DEMO_PHARMACY_NPI } });
    const id = await receive((r) => {
      drug("Gabapentin", "300 mg")(r);
      writtenDaysAgo(20, 4, 2)(r);
    });
    try {
      await db().store.update({
        where: { id: store.id },
        data: { extraSchedules: [{ substance: "gabapentin", schedule: "V" }] },
      });
      const problem = await expectRefused(id, {}, "one-time-transfer-unconfirmed");
      expect(problem.detail).toMatch(/C-V/);
      const ok = await approve(id, { oneTimeTransferConfirmed: true });
      expect(ok.status, ok.text).toBe(200);
      expect((await db().transferDecision.findUniqueOrThrow({ where: { transferId: id } })).scheduleBasis).toMatch(
        /gabapentin, C-V \(state\)/,
      );
    } finally {
      await db().store.update({ where: { id: store.id }, data: { extraSchedules: store.extraSchedules ?? [] } });
    }
  });
});

describe("the queue shows the schedule from the drug", () => {
  let oxycodone: string;
  let amoxicillin: string;
  let unknown: string;
  beforeAll(async () => {
    oxycodone = await receive((r) => {
      drug("oxycodone/APAP 5-325", "5-325 mg")(r);
      r.prescription.refillsAuthorized = 1;
      r.prescription.refillsRemaining = 0;
      r.prescription.firstFilledDate = null;
      r.prescription.lastFilledDate = null;
    });
    amoxicillin = await receive((r) => {
      drug("Amoxicillin", "500 mg")(r);
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["PCN"] };
    });
    unknown = await receive(drug("Qelbrixa"));
  });
  afterAll(async () => {
    await db().transfer.updateMany({
      where: { id: { in: [oxycodone, amoxicillin, unknown] } },
      data: { status: "REJECTED", activeRxKey: null },
    });
  });

  const queue = async (params: Record<string, string>) => {
    const answer = await dashboardFetch<QueuePage>(
      baseUrl,
      `/api/transfers?${new URLSearchParams({ limit: "200", ...params })}`,
      { cookie },
    );
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };

  it("labels the schedule with the substance, flags an allergy conflict, and says when the drug is unknown", async () => {
    const page = await queue({ sender: partner.partnerId });
    const item = (id: string) => page.items.find((i) => i.referenceID === id)!;
    expect(item(oxycodone).flags.schedule).toEqual({ label: "C-II", substance: "oxycodone" });
    expect(item(amoxicillin).flags).toMatchObject({
      schedule: null,
      scheduleUnknown: false,
      allergyAlert: { severity: "danger" },
    });
    expect(item(amoxicillin).flags.allergyAlert!.message).toBe(
      "Amoxicillin is a penicillin; the patient is allergic to PCN",
    );
    expect(item(unknown).flags).toMatchObject({ schedule: null, scheduleUnknown: true });
  });

  it("filters by schedule from the column classified at intake", async () => {
    expect((await queue({ sender: partner.partnerId, schedule: "II" })).items.map((i) => i.referenceID)).toEqual([
      oxycodone,
    ]);
    expect((await queue({ sender: partner.partnerId, schedule: "unknown" })).items.map((i) => i.referenceID)).toEqual([
      unknown,
    ]);
    // Any controlled: the C-II here and the pending C-IV transfers of the tests above, never the others.
    const any = (await queue({ sender: partner.partnerId, schedule: "any" })).items;
    expect(any.map((i) => i.referenceID)).toContain(oxycodone);
    expect(any.map((i) => i.flags.schedule?.label).sort()).toEqual(["C-II", "C-IV", "C-IV"]);
    const bad = await dashboardFetch(baseUrl, `/api/transfers?schedule=VI`, { cookie });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("schedule must be one of");
  });

  it("classifies rows stored before the drug columns and the check columns existed", async () => {
    await db().$executeRaw`
      UPDATE transfers SET drug_schedule = NULL, allergy_alert = NULL, check_flags = NULL, warns_from = NULL
       WHERE id IN (${oxycodone}, ${amoxicillin})`;
    expect(await classifyStoredTransfers()).toBeGreaterThanOrEqual(2);
    const rows = await db().transfer.findMany({
      where: { id: { in: [oxycodone, amoxicillin] } },
      select: { id: true, drugSchedule: true, allergyAlert: true, checkFlags: true, warnsFrom: true },
    });
    expect(
      Object.fromEntries(rows.map((r) => [r.id, [r.drugSchedule, r.allergyAlert, r.checkFlags, r.warnsFrom !== null]])),
    ).toEqual({
      [oxycodone]: ["II", null, expect.arrayContaining(["schedule"]), true],
      [amoxicillin]: ["none", "danger", expect.arrayContaining(["allergy"]), true],
    });
  });
});
