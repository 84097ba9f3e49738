// Over HTTP against the built server: the review screen's patient history matches a
// returning patient on normalised name + date of birth (accents, case, punctuation, whitespace) and on the same
// sender's patient ID; a name with another date of birth, or another sender's patient ID, is not a match. The
// duplicate-therapy warning names another pending or approved transfer of the same substance under another
// name ("Zestril" for lisinopril), not a rejected one nor another drug. "Next for this patient" and the queue's
// groups follow the same rule. Reading the history is audited.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import type { PatientHistory } from "@/lib/transfers/review";
import type { QueuePage } from "@/lib/transfers/queue";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
// Letters only, so that the whole name survives normalisation and no other test's patient shares it.
const tag = [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
const LAST = `Müller-O'Brien ${tag}`;
const LAST_VARIANT = `MULLER OBRIEN${tag.toUpperCase()}`;
const DOB = "1961-05-06";

let partner: CreatedPartner;
let otherPartner: CreatedPartner;
let cookie: string;

type Patient = { last: string; first: string; dob: string; patientId: string };
async function receive(from: CreatedPartner, p: Patient, medicationName: string, strength = "10 mg"): Promise<string> {
  const request = freshRequest((r: TransferRequest) => {
    r.patient.name.lastName = p.last;
    r.patient.name.firstName = p.first;
    r.patient.dateOfBirth = p.dob;
    r.metadata.patientReferenceID = p.patientId;
    r.prescription.medicationName = medicationName;
    r.prescription.drugStrength = strength;
  });
  const answer = await send(baseUrl, { body: request, authorization: senderKey(from.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

const history = async (id: string) => {
  const answer = await dashboardFetch<PatientHistory>(baseUrl, `/api/transfers/${id}/history`, { cookie });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};

const ids = {} as Record<
  | "approvedLisinopril"
  | "current"
  | "atorvastatin"
  | "otherDob"
  | "sameSenderId"
  | "otherSenderId"
  | "rejectedLisinopril",
  string
>;

beforeAll(async () => {
  partner = await createTestPartner("History mail order");
  otherPartner = await createTestPartner("History other sender");
  cookie = await signedInCookie(baseUrl, await createTestUser("pharmacist", "Hana Ito, PharmD"));
  const patient: Patient = { last: LAST, first: "José", dob: DOB, patientId: `pat_a_${tag}` };
  ids.approvedLisinopril = await receive(partner, patient, "Lisinopril 10 mg tablet");
  const approved = await dashboardFetch(baseUrl, `/api/transfers/${ids.approvedLisinopril}/approve`, {
    cookie,
    method: "POST",
    body: {},
  });
  expect(approved.status, approved.text).toBe(200);
  ids.rejectedLisinopril = await receive(partner, patient, "Prinivil", "20 mg");
  const rejected = await dashboardFetch(baseUrl, `/api/transfers/${ids.rejectedLisinopril}/reject`, {
    cookie,
    method: "POST",
    body: { errorType: "OTHER", description: "patient asked to keep it at the other pharmacy" },
  });
  expect(rejected.status, rejected.text).toBe(200);
  // The same person spelt another way (case, accents, punctuation, spaces), with the sender's other profile id.
  ids.current = await receive(
    partner,
    { last: LAST_VARIANT, first: "jose", dob: DOB, patientId: `pat_b_${tag}` },
    "Zestril",
    "10 mg",
  );
  ids.atorvastatin = await receive(
    partner,
    { ...patient, patientId: `pat_b_${tag}` },
    "Atorvastatin 20 mg tablet",
    "20 mg",
  );
  // Not the same person: the same name with another date of birth.
  ids.otherDob = await receive(
    partner,
    { ...patient, dob: "1961-05-07", patientId: `pat_c_${tag}` },
    "Lisinopril 10 mg tablet",
  );
  // The sender's patient id: a match from the same sender whatever the name, not from another sender.
  ids.sameSenderId = await receive(
    partner,
    { last: `Mueller${tag}`, first: "Jose", dob: DOB, patientId: `pat_a_${tag}` },
    "Metformin 500 mg tablet",
    "500 mg",
  );
  ids.otherSenderId = await receive(
    otherPartner,
    { last: `Smith${tag}`, first: "Ann", dob: "1990-01-01", patientId: `pat_a_${tag}` },
    "Lisinopril 10 mg tablet",
  );
});

describe("patient history", () => {
  it("matches the same name and date of birth however they are written, and says how", async () => {
    const h = await history(ids.current);
    const listed = new Map(h.entries.map((e) => [e.referenceID, e]));
    expect([...listed.keys()].sort()).toEqual(
      [ids.approvedLisinopril, ids.rejectedLisinopril, ids.atorvastatin].sort(),
    );
    expect(listed.get(ids.approvedLisinopril)).toMatchObject({
      outcome: "approved",
      decidedBy: "Hana Ito, PharmD",
      matchedBy: ["name-dob"],
      drug: { name: "Lisinopril 10 mg tablet" },
    });
    expect(listed.get(ids.rejectedLisinopril)).toMatchObject({
      outcome: "rejected",
      errorType: "OTHER",
      matchedBy: ["name-dob"],
    });
    // The same sender's patient id too: both ways of matching are named.
    expect(listed.get(ids.atorvastatin)).toMatchObject({
      outcome: "pending",
      decidedBy: null,
      matchedBy: ["patient-id", "name-dob"],
    });
    // A name match with another date of birth is not a match, nor another sender's use of the same patient id.
    expect(listed.has(ids.otherDob)).toBe(false);
    expect(listed.has(ids.otherSenderId)).toBe(false);
  });

  it("matches the same sender's patient id under another name, never another sender's", async () => {
    const h = await history(ids.approvedLisinopril);
    const listed = new Map(h.entries.map((e) => [e.referenceID, e]));
    expect(listed.get(ids.sameSenderId)).toMatchObject({ matchedBy: ["patient-id"], dobDiffers: false });
    expect(listed.has(ids.otherSenderId)).toBe(false);
    expect(listed.has(ids.otherDob)).toBe(false);
    expect((await history(ids.otherSenderId)).entries).toEqual([]);
  });

  it("warns of duplicate therapy: the approved lisinopril, under its brand name, not the rejected one nor another drug", async () => {
    const h = await history(ids.current);
    expect(h.entries.filter((e) => e.duplicateTherapy).map((e) => e.referenceID)).toEqual([ids.approvedLisinopril]);
    expect(h.duplicateTherapyDays).toBe(90);
    // The other-DOB lisinopril is another person: its own history has no duplicate.
    expect((await history(ids.otherDob)).entries.some((e) => e.duplicateTherapy)).toBe(false);
  });

  it("offers the next pending transfer for the same patient, in queue order, wrapping round", async () => {
    expect((await history(ids.current)).nextForPatient).toMatchObject({
      referenceID: ids.atorvastatin,
      pendingCount: 1,
    });
    // From the atorvastatin (queued after it) the next is the Zestril again: queue order wraps round.
    expect((await history(ids.atorvastatin)).nextForPatient).toMatchObject({
      referenceID: ids.current,
      pendingCount: 1,
    });
    // The sender-id match under another name has only decided transfers of its patient: nothing next.
    expect((await history(ids.sameSenderId)).nextForPatient).toBeNull();
  });

  it("records the view in the audit log with the transfers it listed", async () => {
    await history(ids.current);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { transferId: ids.current, action: "transfer.history_viewed" },
      orderBy: { id: "desc" },
    });
    expect((event.details as { referenceIDs: string[] }).referenceIDs).toHaveLength(3);
  });

  it("answers 404 problem+json for an unknown transfer and 401 without a session", async () => {
    const unknown = await dashboardFetch(baseUrl, `/api/transfers/trf_nope${tag}/history`, { cookie });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    const anonymous = await dashboardFetch(baseUrl, `/api/transfers/${ids.current}/history`, {});
    expect(anonymous.status).toBe(401);
  });
});

describe("queue groups", () => {
  it("marks consecutive pending transfers of one patient as a group", async () => {
    // By date of birth: the same person under both spellings, and the sender-id match under another name.
    const page = await dashboardFetch<QueuePage>(baseUrl, `/api/transfers?q=${DOB}`, { cookie });
    expect(page.status, page.text).toBe(200);
    const groups = page.body.items.map((i) => [i.referenceID, i.patientGroup]);
    expect(groups).toEqual([
      [ids.current, { position: 1, size: 2 }],
      [ids.atorvastatin, { position: 2, size: 2 }],
      [ids.sameSenderId, null],
    ]);
  });
});

describe("stored keys", () => {
  it("keeps the normalised name and the sender's patient id in indexed columns, and backfills a missing substance key without touching the schedule", async () => {
    const row = await db().transfer.findUniqueOrThrow({ where: { id: ids.current } });
    expect(row).toMatchObject({
      patientNameKey: `mullerobrien${tag}|jose`,
      patientReferenceId: `pat_b_${tag}`,
      drugSubstanceKey: "lisinopril",
    });
    // A row stored before the column existed (its key NULL) gets it at the next start-up classification.
    await db()
      .$executeRaw`UPDATE transfers SET drug_substance_key = NULL, drug_schedule = 'IV' WHERE id = ${ids.approvedLisinopril}`;
    expect(await classifyStoredTransfers()).toBeGreaterThanOrEqual(1);
    expect(await db().transfer.findUniqueOrThrow({ where: { id: ids.approvedLisinopril } })).toMatchObject({
      drugSubstanceKey: "lisinopril",
      drugSchedule: "IV",
    });
    await db().$executeRaw`UPDATE transfers SET drug_schedule = 'none' WHERE id = ${ids.approvedLisinopril}`;
  });
});
