// The review queue over HTTP against real PostgreSQL: pending first and oldest first, keyset pages that
// neither skip nor repeat, filters, search (name prefix, DOB in both forms, rxNumber, referenceID),
// counts per status, the "warnings" filter agreeing with the review checks, and searches in the audit log.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { approveTransfer, rejectTransfer } from "@/lib/transfers/decision";
import type { QueuePage, QueueItem } from "@/lib/transfers/queue";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { reviewDrug, countProblems, reviewChecks } from "@/lib/transfers/review";
import { TransferRequestSchema, type TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let pharmacist: TestUser;
let cookie: string;
/** referenceIDs in the order they were received (oldest first). */
const ids: string[] = [];
const requests = new Map<string, TransferRequest>();

const LAST_NAMES = [
  "Quimby",
  "Quill",
  "Quinlan",
  "Quist",
  "Quarles",
  "Quon",
  "Quade",
  "Quayle",
  "Quick",
  "Quintero",
  "Quiroz",
  "Qualls",
];

async function receiveAt(minutesAgo: number, change?: (r: TransferRequest) => void): Promise<string> {
  const request = freshRequest(change);
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  const id = answer.body.metadata.referenceID;
  await db()
    .$executeRaw`UPDATE transfers SET received_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${id}`;
  requests.set(id, request);
  return id;
}

async function queue(params: Record<string, string>): Promise<QueuePage> {
  const answer = await dashboardFetch<QueuePage>(
    baseUrl,
    `/api/transfers?${new URLSearchParams({ sender: partner.partnerId, ...params })}`,
    { cookie },
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function allPages(params: Record<string, string>): Promise<QueueItem[]> {
  const items: QueueItem[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const page: QueuePage = await queue({ ...params, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return items;
}

beforeAll(async () => {
  partner = await createTestPartner("Queue");
  pharmacist = await createTestUser("pharmacist", "Quentin Queue, PharmD");
  cookie = await signedInCookie(baseUrl, pharmacist);
  // Twelve transfers, 12 to 1 hours old; same received time for two of them, to exercise the id tie-break.
  for (let i = 0; i < LAST_NAMES.length; i++) {
    const minutes = i === 5 ? 7 * 60 : (12 - i) * 60;
    ids.push(
      await receiveAt(minutes, (r) => {
        r.patient.name.lastName = LAST_NAMES[i]!;
        r.patient.name.firstName = i % 2 ? "Ann" : "Bo";
        r.patient.dateOfBirth = `19${50 + i}-0${(i % 9) + 1}-15`;
      }),
    );
  }
  await db()
    .$executeRaw`UPDATE transfers SET received_at = (SELECT received_at FROM transfers WHERE id = ${ids[5]!}) WHERE id = ${ids[6]!}`;
  const actor = { id: pharmacist.id, email: pharmacist.email, name: pharmacist.name, role: pharmacist.role };
  await approveTransfer({ transferId: ids[0]!, actor, clientAddress: null, approval: {} });
  await rejectTransfer({
    transferId: ids[1]!,
    actor,
    clientAddress: null,
    rejection: { errorType: "OTHER", description: "test" },
  });
});

function expectedOrder(list: string[], received: Map<string, number>, newest = false): string[] {
  return [...list].sort((a, b) => {
    const d = received.get(a)! - received.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
    return newest ? -d : d;
  });
}

async function receivedTimes(): Promise<Map<string, number>> {
  const rows = await db().transfer.findMany({
    where: { partnerId: partner.partnerId },
    select: { id: true, receivedAt: true },
  });
  return new Map(rows.map((r) => [r.id, r.receivedAt.getTime()]));
}

describe("the queue", () => {
  it("lists pending transfers oldest first, in keyset pages that neither skip nor repeat", async () => {
    const received = await receivedTimes();
    const pending = ids.slice(2);
    const first = await queue({ limit: "3" });
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).toBeTruthy();
    const all = await allPages({ limit: "3" });
    expect(all.map((i) => i.referenceID)).toEqual(expectedOrder(pending, received));
    expect(all.every((i) => i.status === "RECEIVED")).toBe(true);
    const newest = await allPages({ limit: "4", sort: "newest" });
    expect(newest.map((i) => i.referenceID)).toEqual(expectedOrder(pending, received, true));
  });

  it("keeps a page stable while new transfers arrive behind it", async () => {
    const first = await queue({ limit: "5" });
    const extra = await receiveAt(1);
    const rest = await allPages({ limit: "5", cursor: first.nextCursor! });
    const seen = [...first.items, ...rest].map((i) => i.referenceID);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(extra);
    expect(seen[seen.length - 1]).toBe(extra);
  });

  it("with all statuses, shows the pending first and the decided after", async () => {
    const all = await allPages({ status: "all", limit: "4" });
    const statuses = all.map((i) => i.status);
    const firstDecided = statuses.findIndex((s) => s !== "RECEIVED");
    expect(firstDecided).toBeGreaterThan(0);
    expect(statuses.slice(firstDecided).every((s) => s !== "RECEIVED")).toBe(true);
    expect(
      all
        .slice(firstDecided)
        .map((i) => i.referenceID)
        .sort(),
    ).toEqual([ids[0]!, ids[1]!].sort());
    // A decided row names who decided it (the reviewer column), a pending one nobody.
    for (const item of all) expect(item.decidedBy).toBe(item.status === "RECEIVED" ? null : pharmacist.name);
  });

  it("counts each status, with the filters applied", async () => {
    const page = await queue({});
    const pendingNow = await db().transfer.count({ where: { partnerId: partner.partnerId, status: "RECEIVED" } });
    expect(page.counts).toEqual({
      RECEIVED: { count: pendingNow, capped: false },
      CONFIRMED: { count: 1, capped: false },
      REJECTED: { count: 1, capped: false },
    });
    const approved = await queue({ status: "CONFIRMED" });
    expect(approved.items.map((i) => i.referenceID)).toEqual([ids[0]]);
    expect(approved.items[0]!.decidedAt).not.toBeNull();
  });

  it("filters by received date range", async () => {
    const received = await receivedTimes();
    const from = new Date(Date.now() - 6.5 * 3_600_000).toISOString();
    const to = new Date(Date.now() - 2.5 * 3_600_000).toISOString();
    const page = await queue({ from, to, limit: "100" });
    const expected = ids
      .slice(2)
      .filter((id) => received.get(id)! >= Date.parse(from) && received.get(id)! < Date.parse(to));
    expect(page.items.map((i) => i.referenceID).sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(0);
  });

  it("searches by name prefix (last first), DOB in either form, rxNumber and referenceID", async () => {
    const target = ids[4]!;
    const request = requests.get(target)!;
    const byName = await queue({ q: `${request.patient.name.lastName}, ${request.patient.name.firstName}` });
    expect(byName.items.map((i) => i.referenceID)).toEqual([target]);
    const byPrefix = await queue({ q: "qui", limit: "100" });
    const pendingQui = ids
      .slice(2)
      .filter((id) => requests.get(id)!.patient.name.lastName.toLowerCase().startsWith("qui"));
    expect(byPrefix.items.map((i) => i.referenceID).sort()).toEqual(pendingQui.sort());
    const dob = request.patient.dateOfBirth;
    expect((await queue({ q: dob })).items.map((i) => i.referenceID)).toContain(target);
    const [y, m, d] = dob.split("-");
    expect((await queue({ q: `${m}/${d}/${y}` })).items.map((i) => i.referenceID)).toContain(target);
    expect((await queue({ q: request.prescription.rxNumber })).items.map((i) => i.referenceID)).toEqual([target]);
    expect((await queue({ q: target, status: "all" })).items.map((i) => i.referenceID)).toEqual([target]);
    expect((await queue({ q: "100%_" })).items).toEqual([]);
  });

  it("finds a patient by name in either order, and a transfer by its drug's name", async () => {
    const tanaka = await receiveAt(30, (r) => {
      r.patient.name.firstName = "Abigail";
      r.patient.name.lastName = "Tanaka";
      r.prescription.medicationName = "Omeprazole";
    });
    const other = await receiveAt(20, (r) => {
      r.patient.name.firstName = "Tanaka";
      r.patient.name.lastName = "Ozawa";
      r.prescription.medicationName = "Gabapentin";
    });
    const found = async (q: string) => (await queue({ q, limit: "100" })).items.map((i) => i.referenceID).sort();
    expect(await found("Tanaka Abigail")).toEqual([tanaka]);
    expect(await found("Abigail Tanaka")).toEqual([tanaka]);
    expect(await found("Tanaka, Abig")).toEqual([tanaka]);
    expect(await found("omeprazole")).toEqual([tanaka]);
    expect(await found("OMEP")).toEqual([tanaka]);
    expect(await found("gabapentin")).toEqual([other]);
    expect(await found("Tanaka")).toEqual([tanaka]);
  });

  it("records each search in the audit log with the ids it returned, never the search text", async () => {
    const request = requests.get(ids[3]!)!;
    await queue({ q: request.prescription.rxNumber });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { userId: pharmacist.id, action: "queue.searched" },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ searchKind: "nameOrRxNumber", resultCount: 1, referenceIDs: [ids[3]] });
    expect(JSON.stringify(event.details)).not.toContain(request.prescription.rxNumber);
    expect(event.clientAddress).toBeTruthy();
  });

  it("flags allergies, the controlled-substance hint and checks per row, and filters by them", async () => {
    const allergic = await receiveAt(30, (r) => {
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Codeine"] };
      r.prescriber.dea = null;
    });
    const unknown = await receiveAt(29, (r) => {
      r.patient.allergyDetails = { allergiesDescriptor: "NOT_AVAILABLE", allergies: [] };
    });
    const page = await queue({ limit: "100" });
    const a = page.items.find((i) => i.referenceID === allergic)!;
    // A prescriber without a DEA number says nothing about the drug; atorvastatin is not controlled.
    expect(a.flags).toMatchObject({
      allergies: ["Codeine"],
      allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED",
      schedule: null,
      scheduleUnknown: false,
      allergyAlert: null,
    });
    expect(page.items.find((i) => i.referenceID === unknown)!.flags.allergiesDescriptor).toBe("NOT_AVAILABLE");
    expect((await queue({ flags: "allergies-unknown", limit: "100" })).items.map((i) => i.referenceID)).toEqual([
      unknown,
    ]);
    const controlled = await queue({ flags: "controlled", limit: "100" });
    expect(controlled.items.every((i) => i.flags.schedule !== null)).toBe(true);
    expect(controlled.items.map((i) => i.referenceID)).not.toContain(allergic);
    const withAllergies = await queue({ flags: "allergies", limit: "100" });
    expect(withAllergies.items.map((i) => i.referenceID)).toContain(allergic);
    expect(withAllergies.items.every((i) => i.flags.allergies.length > 0)).toBe(true);
  });

  it("the warnings filter (stored check flags) finds exactly the transfers the review checks warn about", async () => {
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const cases: ((r: TransferRequest) => void)[] = [
      (r) => (r.prescription.expirationDate = soon),
      (r) => (r.prescription.dispensedNDC = "00093505601"),
      (r) => {
        r.prescription.dawCode = 1;
        r.prescription.canSubstitute = true;
      },
      (r) => {
        r.prescription.dawCode = 0;
        r.prescription.canSubstitute = false;
      },
      (r) => {
        r.prescription.quantityDispensed = 40;
        r.prescription.quantityWritten = 30;
      },
      (r) => {
        r.prescription.drugForm = "Capsule";
        r.prescription.quantityDispensed = 270;
        r.prescription.quantityWritten = 270;
        r.prescription.daysSupply = 30;
      },
      (r) => {
        r.prescription.dawCode = 2;
        r.prescription.canSubstitute = false;
      },
      (r) => {
        r.prescription.dawCode = null;
      },
    ];
    const made: string[] = [];
    for (const change of cases) made.push(await receiveAt(20, change));
    const page = await queue({ flags: "warnings", limit: "200" });
    const sqlWarned = new Set(page.items.map((i) => i.referenceID));
    const now = new Date();
    const all = await db().transfer.findMany({
      where: { partnerId: partner.partnerId, status: "RECEIVED" },
      select: { id: true, request: true },
    });
    for (const row of all) {
      const request = TransferRequestSchema.parse(row.request);
      const problems = countProblems(reviewChecks(request, reviewDrug(request, DEFAULT_STORE_RULES, now)));
      expect(sqlWarned.has(row.id), `${row.id} ${JSON.stringify(problems)}`).toBe(
        problems.warnings + problems.failures > 0,
      );
    }
    expect(made.slice(0, 6).every((id) => sqlWarned.has(id))).toBe(true);
    expect(made.slice(6).some((id) => sqlWarned.has(id))).toBe(false);
  });

  it("shows who is reviewing a transfer", async () => {
    const target = ids[7]!;
    expect((await dashboardFetch(baseUrl, `/api/transfers/${target}/claim`, { cookie, method: "POST" })).status).toBe(
      200,
    );
    const item = (await queue({ limit: "100" })).items.find((i) => i.referenceID === target)!;
    expect(item.claim).toMatchObject({ heldBy: pharmacist.name, heldById: pharmacist.id });
  });

  it("answers a bad filter or a forged cursor with 400 problem+json", async () => {
    const bad: Record<string, string>[] = [
      { status: "DONE" },
      { cursor: "not-a-cursor" },
      { from: "yesterday" },
      { flags: "nope" },
      { limit: "5000" },
    ];
    for (const params of bad) {
      const answer = await dashboardFetch(baseUrl, `/api/transfers?${new URLSearchParams(params)}`, { cookie });
      expect(answer.status, JSON.stringify(params)).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
  });
});
