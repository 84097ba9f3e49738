// The drug rules' second round over real HTTP against the production build: a Schedule III-V prescription never
// filled is refused at approval like Schedule II (a 422 naming the rule, the rejection prefilled, the queue
// flag); the lawful refill count (at most 5 for III/IV) is what the legal record, the CSV export, the FHIR
// download and the integration feed state, with the sender's number beside it; and the six-month rule counts
// the store's own calendar day, in its time zone.
import type { Bundle, MedicationRequest } from "@medplum/fhirtypes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { legalExpiry } from "@/lib/drugs";
import { createIntegrationKey } from "@/lib/integration/integration-keys";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { calendarDayIn } from "@/lib/interface";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import type { QueuePage } from "@/lib/transfers/queue";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { fhirSchemaErrors } from "@/tests/support/fhir-schema";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
let partner: CreatedPartner;
let pharmacist: TestUser;
let cookie: string;

type Problem = { status: number; rule?: string; detail: string; reject?: { errorType: string; description: string } };

async function receive(change: (r: TransferRequest) => void): Promise<string> {
  const answer = await send(baseUrl, { body: freshRequest(change), authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

/** A prescription of `name` written `days` ago, filled once unless `filled` is false. */
function prescription(
  name: string,
  opts: { days?: number; authorized?: number; remaining?: number; filled?: boolean; written?: string } = {},
): (r: TransferRequest) => void {
  return (r) => {
    const written = Date.now() - (opts.days ?? 30) * DAY_MS;
    r.prescription.medicationName = name;
    r.prescription.writtenDate = opts.written ?? iso(written);
    r.prescription.firstFilledDate = opts.filled === false ? null : iso(Date.now() - 20 * DAY_MS);
    r.prescription.lastFilledDate = opts.filled === false ? null : iso(Date.now() - 10 * DAY_MS);
    r.prescription.expirationDate = iso(Date.now() + 60 * DAY_MS);
    r.prescription.refillsAuthorized = opts.authorized ?? 3;
    r.prescription.refillsRemaining = opts.remaining ?? (opts.filled === false ? 2 : 1);
  };
}

const approve = (id: string, body: Record<string, unknown> = {}) =>
  dashboardFetch<Problem>(baseUrl, `/api/transfers/${id}/approve`, { cookie, method: "POST", body });

beforeAll(async () => {
  partner = await createTestPartner("Drug rules, second round");
  pharmacist = await createTestUser("pharmacist", "Dana Ortiz, PharmD");
  cookie = await signedInCookie(baseUrl, pharmacist);
});

describe("a Schedule III-V prescription never filled", () => {
  const drugs = [
    ["Alprazolam 0.5 mg", "IV"],
    ["Tramadol HCl 50 mg", "IV"],
    ["Testosterone Cypionate 200 mg/mL", "III"],
    ["Buprenorphine-Naloxone 8-2 mg", "III"],
    ["Pregabalin 75 mg", "V"],
    ["Lacosamide 100 mg", "V"],
  ] as const;
  const ids: string[] = [];
  afterAll(async () => {
    await db().transfer.updateMany({ where: { id: { in: ids }, status: "RECEIVED" }, data: { status: "REJECTED" } });
  });

  it("is refused at approval (422, rule controlled-first-fill, 1306.25(a) and 1306.08(e)-(g) in words)", async () => {
    for (const [name, schedule] of drugs) {
      const id = await receive(prescription(name, { filled: false }));
      ids.push(id);
      const answer = await approve(id, { oneTimeTransferConfirmed: true });
      expect(answer.status, `${name}: ${answer.text}`).toBe(422);
      expect(answer.body, name).toMatchObject({ status: 422, rule: "controlled-first-fill" });
      expect(answer.body.detail, name).toContain(`is Schedule ${schedule} and this prescription was never filled`);
      expect(answer.body.detail, name).toContain("only for refill dispensing (21 CFR 1306.25(a))");
      expect(answer.body.detail, name).toContain("(21 CFR 1306.08(e)-(g))");
      expect(answer.body.reject, name).toMatchObject({ errorType: "OTHER" });
      expect((await db().transfer.findUniqueOrThrow({ where: { id } })).status).toBe("RECEIVED");
    }
  });

  it("is flagged in the queue, and the prefilled rejection is accepted as it is", async () => {
    const page = await dashboardFetch<QueuePage>(
      baseUrl,
      `/api/transfers?${new URLSearchParams({ limit: "200", sender: partner.partnerId })}`,
      { cookie },
    );
    const item = page.body.items.find((i) => i.referenceID === ids[0])!;
    expect(item.flags.approvalBlocked).toBe("Schedule IV first fill cannot be transferred here");
    expect(item.flags.failures).toBeGreaterThanOrEqual(1);
    // The queue's "warnings" filter holds it too (the same rule in SQL).
    const warnings = await dashboardFetch<QueuePage>(
      baseUrl,
      `/api/transfers?${new URLSearchParams({ limit: "200", sender: partner.partnerId, flags: "warnings" })}`,
      { cookie },
    );
    expect(warnings.body.items.map((i) => i.referenceID)).toEqual(expect.arrayContaining(ids));

    const refused = await approve(ids[0]!, { oneTimeTransferConfirmed: true });
    const reject = await dashboardFetch(baseUrl, `/api/transfers/${ids[0]}/reject`, {
      cookie,
      method: "POST",
      body: refused.body.reject,
    });
    expect(reject.status, reject.text).toBe(200);
  });

  it("a non-controlled prescription never filled (sertraline) is still approved", async () => {
    const id = await receive(prescription("Sertraline 50 mg", { filled: false }));
    const ok = await approve(id);
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("the lawful refill count in every output", () => {
  let id: string;
  let bundleFromFeed: Bundle | undefined;
  beforeAll(async () => {
    // Clonazepam (C-IV) written with 11 refills after the first fill, 1 used: federal law allows 5, so 4 remain.
    id = await receive(prescription("Clonazepam 0.5 mg", { authorized: 12, remaining: 10 }));
  });

  it("the approval states the lawful number, and the record, CSV, FHIR download and feed carry it", async () => {
    const review = await dashboardFetch<{ checks: { id: string; status: string; detail: string }[] }>(
      baseUrl,
      `/api/transfers/${id}`,
      { cookie },
    );
    expect(review.body.checks.find((c) => c.id === "controlled-refills")!.detail).toMatch(
      /11 refills were written after the first fill; federal law allows 5; 1 used, 4 lawfully remain/,
    );
    const key = (await createIntegrationKey({ name: "Refills feed", actor: SYSTEM_ACTOR })).integrationKey;
    const ok = await approve(id, { oneTimeTransferConfirmed: true });
    expect(ok.status, ok.text).toBe(200);

    // The legal record (the printable page).
    const record = await dashboardFetch(baseUrl, `/transfers/${id}/record`, { cookie });
    expect(record.status).toBe(200);
    expect(record.text).toMatch(/Valid refills remaining \(lawful number\)<\/th><td[^>]*>4</);
    expect(record.text).toMatch(
      /Refills remaining as sent by the transferring pharmacy<\/th><td[^>]*>10 \(more than federal law allows: not valid\)</,
    );

    // The CSV export: the record's elements as columns.
    const decidedAt = (await db().transferDecision.findUniqueOrThrow({ where: { transferId: id } })).decidedAt;
    const csv = await dashboardFetch(
      baseUrl,
      `/api/transfers/export?${new URLSearchParams({
        from: new Date(decidedAt.getTime() - 1000).toISOString(),
        to: new Date(decidedAt.getTime() + 1000).toISOString(),
        schedule: "IV",
      })}`,
      { cookie, headers: { accept: "text/csv" } },
    );
    expect(csv.status, csv.text).toBe(200);
    // Every field is quoted, and none of this fixture's holds a quote or a backslash: each line reads as JSON.
    const [header, ...rows] = csv.text
      .trim()
      .split("\r\n")
      .map((line) => JSON.parse(`[${line}]`) as string[]);
    const row = rows.find((r) => r[0] === id);
    expect(row, csv.text).toBeDefined();
    const cell = (key: string) => row![header!.indexOf(key)];
    expect(cell("refillsRemaining")).toBe("4");
    expect(cell("senderRefillsRemaining")).toBe("10 (more than federal law allows: not valid)");

    // The FHIR download.
    const fhir = await dashboardFetch<Bundle>(baseUrl, `/api/transfers/${id}/fhir`, { cookie });
    expect(fhir.status, fhir.text).toBe(200);
    // The integration feed.
    type FeedPage = { items: { referenceID: string; bundle: Bundle }[]; nextCursor: string; hasMore: boolean };
    let items: FeedPage["items"] = [];
    for (let since = ""; ;) {
      const res = await fetch(`${baseUrl}/api/integration/transfers?limit=100${since ? `&since=${since}` : ""}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const page = (await res.json()) as FeedPage;
      items = page.items;
      if (items.some((i) => i.referenceID === id) || !page.hasMore) break;
      since = page.nextCursor;
    }
    bundleFromFeed = items.find((i) => i.referenceID === id)?.bundle;
    expect(bundleFromFeed, "the approval is in the feed").toBeDefined();

    for (const bundle of [fhir.body, bundleFromFeed!]) {
      const mr = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === "MedicationRequest") as
        MedicationRequest | undefined;
      expect(mr?.dispenseRequest?.numberOfRepeatsAllowed).toBe(5);
      expect(mr?.note?.[0]?.text).toContain("Valid refills remaining: 4.");
      expect(mr?.note?.[0]?.text).toContain(
        "The transferring pharmacy sent 11 refills after the first fill and 10 remaining",
      );
    }
    // Checked after the last request: compiling the schema blocks for seconds, past the server's keep-alive.
    expect(fhirSchemaErrors(fhir.body)).toEqual([]);
    expect(fhirSchemaErrors(bundleFromFeed!)).toEqual([]);
  }, 90_000);
});

describe("no known allergies written as NKDA", () => {
  it("is accepted under NO_KNOWN_ALLERGIES, stored as sent and no allergy in the queue; a real allergy there is refused", async () => {
    const id = await receive((r) => {
      prescription("Amoxicillin 500 mg")(r);
      r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA"] };
    });
    const stored = await db().transfer.findUniqueOrThrow({ where: { id } });
    expect((stored.request as TransferRequest).patient.allergyDetails.allergies).toEqual(["NKDA"]);
    const page = await dashboardFetch<QueuePage>(
      baseUrl,
      `/api/transfers?${new URLSearchParams({ limit: "200", sender: partner.partnerId })}`,
      { cookie },
    );
    expect(page.body.items.find((i) => i.referenceID === id)!.flags).toMatchObject({
      allergies: [],
      allergiesDescriptor: "NO_KNOWN_ALLERGIES",
      allergyAlert: null,
    });
    const refused = await send(baseUrl, {
      body: freshRequest((r) => {
        r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA", "Codeine"] };
      }),
      authorization: senderKey(partner.apiKey),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      type: "INVALID_INFO",
      description:
        'patient.allergyDetails.allergies lists an allergy ("Codeine") while patient.allergyDetails.allergiesDescriptor is NO_KNOWN_ALLERGIES: send KNOWN_ALLERGIES_INCLUDED with the allergies, or no allergies',
    });
  });
});

describe("the six months on the store's calendar day", () => {
  /**
   * A zone whose calendar day differs from UTC's right now (well away from its midnight), and a written date
   * whose six months end on the day that decides: behind UTC (the issue's Illinois evening), the store's day
   * is still the last lawful one while UTC's has passed; ahead of UTC, the store's day has passed while UTC's
   * is still the last lawful one.
   */
  function boundaryCase(): { zone: string; written: string; lawfulHere: boolean } {
    const now = Date.now();
    const utc = calendarDayIn(now, "UTC");
    const candidates = [
      { zone: "Pacific/Kiritimati", ahead: true },
      { zone: "Pacific/Pago_Pago", ahead: false },
    ];
    for (const { zone, ahead } of candidates) {
      const margin = 20 * 60_000;
      const day = calendarDayIn(now, zone);
      if (day === utc || calendarDayIn(now - margin, zone) !== day || calendarDayIn(now + margin, zone) !== day)
        continue;
      const lastLawfulDay = ahead ? utc : day;
      // The written date whose six months end exactly on that day (the day clamped like legalExpiry does).
      for (let back = 175; back <= 190; back++) {
        const written = calendarDayIn(now - back * DAY_MS, "UTC");
        const expiry = legalExpiry({ writtenDate: written, schedule: "IV", nonControlledMonths: 12 });
        if (expiry.toISOString().slice(0, 10) === lastLawfulDay)
          return { zone, written: `${written}T12:00:00Z`, lawfulHere: !ahead };
      }
    }
    throw new Error("no zone away from midnight with an exact six-month date (cannot happen twice in a row)");
  }

  it("judges a Schedule IV (lorazepam) written six months ago by the store's day, not UTC's", async () => {
    const store = await db().store.findUniqueOrThrow({ where: { npi: DEMO_PHARMACY_NPI } });
    const { zone, written, lawfulHere } = boundaryCase();
    const id = await receive(
      prescription("Lorazepam 1 mg", { written, authorized: 3, remaining: 1, filled: true, days: 0 }),
    );
    try {
      await db().store.update({ where: { id: store.id }, data: { timeZone: zone } });
      const answer = await approve(id, { oneTimeTransferConfirmed: true });
      if (lawfulHere) {
        expect(answer.status, `${zone} ${written}: ${answer.text}`).toBe(200);
      } else {
        expect(answer.status, `${zone} ${written}: ${answer.text}`).toBe(422);
        expect(answer.body.rule).toBe("controlled-six-months");
      }
    } finally {
      await db().store.update({ where: { id: store.id }, data: { timeZone: store.timeZone } });
      await db().transfer.updateMany({ where: { id, status: "RECEIVED" }, data: { status: "REJECTED" } });
    }
  });
});
