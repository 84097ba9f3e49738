// The review checks stored on write (check_flags, warns_from: lib/transfers/intake/classify-transfer.ts) against the
// checks themselves (lib/transfers/review/review-checks.ts), for transfers of real drugs received over HTTP into a
// store of their own: the queue's "warnings" condition must pick exactly the transfers whose checks warn or
// fail, on the day they arrive, on later days (no row is rewritten as the days pass), after the store's rules
// change, and after its time zone changes.
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sqlDb } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { inZone, parseStoreRules } from "@/lib/stores/store-rules";
import { addDays, calendarDayIn } from "@/lib/interface";
import { reviewDrug } from "@/lib/transfers/review";
import { computeNpiCheckDigit } from "@/lib/interface";
import { filterConditions, runQueueStatement } from "@/lib/transfers/queue";
import { QueueQuerySchema } from "@/lib/transfers/queue";
import { reviewCheckOptions } from "@/lib/transfers/review";
import { reviewChecks } from "@/lib/transfers/review";
import { TransferRequestSchema, type TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const DAY = 86_400_000;
let partner: CreatedPartner;
let adminCookie: string;
let store: { storeId: string; npi: string };
const ids = new Map<string, string>();

const soon = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");
const neverFilled = (p: TransferRequest["prescription"]) => {
  p.firstFilledDate = null;
  p.lastFilledDate = null;
  p.refillsRemaining = p.refillsAuthorized - 1;
};

/** Real drugs, each a different reason to warn or fail, or none. */
const CASES: Record<string, (r: TransferRequest) => void> = {
  atorvastatin: () => {},
  "alprazolam refill": (r) => (r.prescription.medicationName = "Alprazolam"),
  "zolpidem first fill": (r) => {
    r.prescription.medicationName = "Zolpidem Tartrate";
    neverFilled(r.prescription);
  },
  oxycodone: (r) => (r.prescription.medicationName = "Oxycodone HCl"),
  "amoxicillin, penicillin allergy": (r) => (r.prescription.medicationName = "Amoxicillin"),
  "cefdinir, penicillin allergy": (r) => (r.prescription.medicationName = "Cefdinir"),
  "tramadol without a DEA number": (r) => {
    r.prescription.medicationName = "Tramadol HCl";
    r.prescriber.dea = null;
  },
  "gabapentin first fill": (r) => {
    r.prescription.medicationName = "Gabapentin";
    r.prescription.drugForm = "Capsule";
    neverFilled(r.prescription);
  },
  "lisinopril expiring in 20 days": (r) => {
    r.prescription.medicationName = "Lisinopril";
    r.prescription.expirationDate = soon(20);
  },
  "metformin expiring in 45 days": (r) => {
    r.prescription.medicationName = "Metformin HCl";
    r.prescription.expirationDate = soon(45);
  },
  "sertraline, another NDC dispensed": (r) => {
    r.prescription.medicationName = "Sertraline";
    r.prescription.dispensedNDC = "00093505601";
  },
  "amlodipine, DAW 1 with substitution": (r) => {
    r.prescription.medicationName = "Amlodipine Besylate";
    r.prescription.dawCode = 1;
    r.prescription.canSubstitute = true;
  },
  "omeprazole, 9 capsules a day": (r) => {
    r.prescription.medicationName = "Omeprazole";
    r.prescription.drugForm = "Capsule";
    r.prescription.quantityWritten = 270;
    r.prescription.quantityDispensed = 270;
  },
  "a drug the tables do not know": (r) => (r.prescription.medicationName = "Zyxoflamide"),
};

function randomNpi(): string {
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

async function admin(method: string, urlPath: string, body: unknown) {
  const answer = await dashboardFetch<Record<string, unknown>>(baseUrl, urlPath, { method, body, cookie: adminCookie });
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body;
}

/** What the queue's "warnings" condition picks among the store's transfers, with the clock at `now`. */
async function flaggedByColumns(now: Date): Promise<string[]> {
  const query = QueueQuerySchema.parse({ flags: ["warnings"] });
  const rows = await runQueueStatement(
    sqlDb()
      .selectFrom("transfers as t")
      .select("t.id")
      .where("t.receiving_npi", "=", store.npi)
      .where((eb) => eb.and(filterConditions(eb, query, now))),
  );
  return rows.map((r) => r.id).sort();
}

/** The transfers whose review checks warn or fail at `now`, computed as the review screen computes them. */
async function flaggedByChecks(now: Date): Promise<string[]> {
  const row = await db().store.findUniqueOrThrow({ where: { id: store.storeId } });
  const rules = inZone(parseStoreRules(row), row.timeZone);
  const transfers = await db().transfer.findMany({
    where: { receivingNpi: store.npi },
    select: { id: true, request: true },
  });
  return transfers
    .filter((t) => {
      const request = TransferRequestSchema.parse(t.request);
      return reviewChecks(request, reviewDrug(request, rules, now), reviewCheckOptions()).some(
        (c) => c.status === "warn" || c.status === "fail",
      );
    })
    .map((t) => t.id)
    .sort();
}

const name = (list: string[]) => list.map((id) => [...ids].find(([, v]) => v === id)?.[0] ?? id);

async function expectAgreement(now: Date): Promise<string[]> {
  const byChecks = await flaggedByChecks(now);
  expect(name(await flaggedByColumns(now)), now.toISOString()).toEqual(name(byChecks));
  return name(byChecks);
}

beforeAll(async () => {
  partner = await createTestPartner("Check Flags");
  const user = await createTestUser("admin", "Check Flags Admin");
  adminCookie = await signedInCookie(baseUrl, user);
  const npi = randomNpi();
  const added = await admin("POST", "/api/admin/stores", { name: "Check Flags Store", npi });
  store = { storeId: added.storeId as string, npi };
  for (const [label, change] of Object.entries(CASES)) {
    const request = freshRequest((r) => {
      r.receivingPharmacy.npi = npi;
      change(r);
    });
    const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
    expect(answer.status, `${label}: ${answer.text}`).toBe(200);
    ids.set(label, answer.body.metadata.referenceID);
  }
});

describe("the review checks stored on write", () => {
  it("hold the ids of the checks that warn or fail, the dated expiry check as the day it starts", async () => {
    const now = new Date();
    const row = await db().store.findUniqueOrThrow({ where: { id: store.storeId } });
    const rules = inZone(parseStoreRules(row), row.timeZone);
    const today = calendarDayIn(now, rules.timeZone);
    const stored = await db().transfer.findMany({
      where: { receivingNpi: store.npi },
      select: { id: true, request: true, checkFlags: true, warnsFrom: true },
    });
    for (const t of stored) {
      const request = TransferRequestSchema.parse(t.request);
      const flagged = reviewChecks(request, reviewDrug(request, rules, now), reviewCheckOptions())
        .filter((c) => c.status === "warn" || c.status === "fail")
        .map((c) => c.id);
      const warnsFrom = t.warnsFrom?.toISOString().slice(0, 10);
      const dated = warnsFrom !== undefined && warnsFrom <= today ? ["expiry"] : [];
      expect([...t.checkFlags, ...dated].sort(), name([t.id])[0]).toEqual(flagged.sort());
    }
    const byId = new Map(stored.map((t) => [t.id, t]));
    expect(byId.get(ids.get("oxycodone")!)!.checkFlags).toContain("schedule");
    expect(byId.get(ids.get("atorvastatin")!)!.checkFlags).toEqual([]);
    expect(byId.get(ids.get("metformin expiring in 45 days")!)!.warnsFrom!.toISOString().slice(0, 10)).toBe(
      addDays(calendarDayIn(new Date(Date.now() + 45 * DAY), "UTC"), -29),
    );
  });

  it("the warnings condition picks what the checks flag, today and on later days, without a rewrite", async () => {
    const today = await expectAgreement(new Date());
    expect(today).toEqual(
      expect.arrayContaining([
        "zolpidem first fill",
        "oxycodone",
        "amoxicillin, penicillin allergy",
        "cefdinir, penicillin allergy",
        "tramadol without a DEA number",
        "lisinopril expiring in 20 days",
        "sertraline, another NDC dispensed",
        "amlodipine, DAW 1 with substitution",
        "omeprazole, 9 capsules a day",
        "a drug the tables do not know",
      ]),
    );
    expect(today).not.toContain("metformin expiring in 45 days");
    expect(today).not.toContain("atorvastatin");
    // The metformin's expiry warning starts 30 days before its date: after 16 days, and from then on.
    const later = await expectAgreement(new Date(Date.now() + 17 * DAY));
    expect(later).toContain("metformin expiring in 45 days");
    expect(later).not.toContain("atorvastatin");
    for (const days of [40, 200, 400]) await expectAgreement(new Date(Date.now() + days * DAY));
    expect(await expectAgreement(new Date(Date.now() + 400 * DAY))).toContain("atorvastatin");
  });

  it("follows the store's rules when they change (state schedules, prescription validity)", async () => {
    await admin("PATCH", `/api/admin/stores/${store.storeId}`, {
      extraSchedules: [{ substance: "gabapentin", schedule: "V" }],
    });
    expect(await expectAgreement(new Date())).toContain("gabapentin first fill");
    // Valid one month here: the atorvastatin written 40 days ago has lapsed.
    await admin("PATCH", `/api/admin/stores/${store.storeId}`, { rxExpiryMonths: 1 });
    expect(await expectAgreement(new Date())).toContain("atorvastatin");
    await admin("PATCH", `/api/admin/stores/${store.storeId}`, { extraSchedules: [], rxExpiryMonths: 12 });
    const back = await expectAgreement(new Date());
    expect(back).not.toContain("atorvastatin");
    expect(back).not.toContain("gabapentin first fill");
  });

  it("counts the store's calendar day, also after its time zone changes", async () => {
    // UTC+14: the store's day is a day ahead of UTC's for ten hours of every day.
    await admin("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
      alertThresholdsMinutes: [120, 180],
      openingHours: null,
      timeZone: "Pacific/Kiritimati",
    });
    const [metformin] = await db().transfer.findMany({
      where: { id: ids.get("metformin expiring in 45 days")! },
      select: { warnsFrom: true },
    });
    const day = metformin!.warnsFrom!.toISOString().slice(0, 10);
    // 23:00 the evening before in the store (not yet), then 01:00 on the day (flagged): both on UTC's day before.
    const before = await expectAgreement(new Date(`${addDays(day, -1)}T09:00:00Z`));
    expect(before).not.toContain("metformin expiring in 45 days");
    const on = await expectAgreement(new Date(`${addDays(day, -1)}T11:00:00Z`));
    expect(on).toContain("metformin expiring in 45 days");
  });
});
