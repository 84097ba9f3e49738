// Immediate confirmation over real HTTP against the production build: a store's policy (off by default,
// versioned, audited), a qualifying transfer CONFIRMED in the answer to POST /v1/transfer with its decision record
// and audit in the same transaction, each rule with a transfer that just fails it (RECEIVED, the reason stored),
// the hourly cap, the replay, and the release to dispensing (FHIR, the feed) only once a pharmacist verifies it.
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { claimOverdueVerifications, verifyDueAt } from "@/lib/immediate-confirm/claim-overdue-verifications";
import { MOVED_MISS, storeUnderImmediatePolicy } from "@/lib/immediate-confirm/confirm-at-intake";
import { findImmediateConfirmPolicy, findImmediatePolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { hashRequestContent, prepareTransfer } from "@/lib/transfers/intake";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { computeNpiCheckDigit } from "@/lib/interface";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey, uniqueLetters } from "@/tests/support/api";
import { runCli } from "@/tests/support/cli";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const DAY_MS = 86_400_000;
let partner: CreatedPartner;
let admin: TestUser;
let pharmacist: TestUser;
let adminCookie: string;
let pharmacistCookie: string;
let store: { storeId: string; npi: string };

function randomNpi(): string {
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

/** A patient of their own (duplicate therapy looks across every transfer), no known allergies, atorvastatin. */
function qualifying(change?: (r: TransferRequest) => void): TransferRequest {
  const letters = uniqueLetters();
  return freshRequest((r) => {
    r.receivingPharmacy.npi = store.npi;
    r.patient.name.lastName = `Verify${letters}`;
    r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
    change?.(r);
  });
}

async function post(request: TransferRequest) {
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

async function setPolicy(body: Record<string, unknown>) {
  return dashboardFetch<Record<string, unknown> & { detail?: string }>(
    baseUrl,
    `/api/admin/stores/${store.storeId}/immediate-confirm`,
    { method: "PUT", body, cookie: adminCookie },
  );
}

async function expectMiss(request: TransferRequest, reason: RegExp): Promise<string> {
  const answer = await post(request);
  expect(answer.body.metadata.responseType).toBe("RECEIVED");
  const row = await db().transfer.findUniqueOrThrow({ where: { id: answer.body.metadata.referenceID } });
  expect(row.status).toBe("RECEIVED");
  expect(row.immediateMiss).toMatch(reason);
  return row.id;
}

beforeAll(async () => {
  partner = await createTestPartner("Immediate confirm");
  admin = await createTestUser("admin");
  pharmacist = await createTestUser("pharmacist", "Riley Shaw, PharmD");
  await db().user.update({ where: { id: pharmacist.id }, data: { licenseNumber: "RPH-40417" } });
  adminCookie = await signedInCookie(baseUrl, admin);
  pharmacistCookie = await signedInCookie(baseUrl, pharmacist);
  store = await addStore("Immediate Store");
});

/** A store of its own, added through the admin API. */
async function addStore(name: string): Promise<{ storeId: string; npi: string }> {
  const npi = randomNpi();
  const added = await dashboardFetch<{ storeId: string }>(baseUrl, "/api/admin/stores", {
    method: "POST",
    body: { name, npi },
    cookie: adminCookie,
  });
  expect(added.status, added.text).toBe(201);
  return { storeId: added.body.storeId, npi };
}

describe("the store policy", () => {
  it("is off by default: a qualifying transfer is RECEIVED with no reason stored", async () => {
    const answer = await post(qualifying());
    expect(answer.body.metadata.responseType).toBe("RECEIVED");
    const row = await db().transfer.findUniqueOrThrow({ where: { id: answer.body.metadata.referenceID } });
    expect(row.immediateMiss).toBeNull();
  });

  it("refuses to turn on without the board rule, then versions and audits each change with old and new", async () => {
    const refused = await setPolicy({ enabled: true, ownerUserId: pharmacist.id, state: "TX" });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.detail).toMatch(/boardRule/);
    const notPharmacist = await setPolicy({
      enabled: true,
      ownerUserId: admin.id,
      state: "TX",
      boardRule: "22 TAC 291.34(g)",
    });
    expect(notPharmacist.status).toBe(400);

    const on = await setPolicy({
      enabled: true,
      ownerUserId: pharmacist.id,
      state: "tx",
      boardRule: "22 TAC 291.34(g)",
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ version: 1, enabled: true, state: "TX", hourlyCap: 60, verifyWithinHours: 4 });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "store.immediate_confirm_changed" },
      orderBy: { id: "desc" },
    });
    expect(audit.details).toMatchObject({
      storeId: store.storeId,
      version: 1,
      from: { enabled: false, version: 0 },
      to: { enabled: true, version: 1, boardRule: "22 TAC 291.34(g)" },
    });
    expect(audit.actor).toBe(admin.email);

    // The CLI takes the same settings, as a new version.
    const cli = await runCli(["store", "immediate-confirm", store.npi, "--verify-within-hours", "6", "--json"], {
      DATABASE_URL: databaseUrl,
      ...TEST_SECRETS,
    });
    expect(cli.code).toBe(0);
    expect(cli.json).toMatchObject({ version: 2, verifyWithinHours: 6, enabled: true });
  });
});

describe("intake under the policy", () => {
  let confirmedId: string;
  let confirmedRequest: TransferRequest;

  it("answers 200 CONFIRMED at once for atorvastatin with clean checks, with the decision record and audit", async () => {
    confirmedRequest = qualifying();
    const answer = await post(confirmedRequest);
    expect(answer.body.metadata.responseType).toBe("CONFIRMED");
    expect(answer.body.prescription).toEqual(confirmedRequest.prescription);
    confirmedId = answer.body.metadata.referenceID;
    const row = await db().transfer.findUniqueOrThrow({ where: { id: confirmedId } });
    expect(row.status).toBe("CONFIRMED");
    const record = await db().immediateConfirmation.findUniqueOrThrow({ where: { transferId: confirmedId } });
    expect(record).toMatchObject({ policyVersion: 2, ownerName: pharmacist.name, verifiedAt: null });
    const audit = await db().auditEvent.findFirst({
      where: { action: "transfer.confirmed_immediately", details: { path: ["transferId"], equals: confirmedId } },
    });
    expect(audit).not.toBeNull();
    // No callback is owed.
    expect(await db().callback.count({ where: { transferId: confirmedId } })).toBe(0);

    const replay = await post(confirmedRequest);
    expect(replay.body).toEqual(answer.body);
    // The answer is stored once, as the response: the status lookup returns it, the outcome column stays empty.
    expect(row.outcome).toBeNull();
    const lookup = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${confirmedId}`,
      authorization: senderKey(partner.apiKey),
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual(answer.body);
  });

  it("withholds the FHIR Bundle and the feed entry until a pharmacist verifies, then records who and releases it", async () => {
    const fhir = await dashboardFetch(baseUrl, `/api/transfers/${confirmedId}/fhir`, { cookie: pharmacistCookie });
    expect(fhir.status).toBe(409);
    expect(fhir.text).toMatch(/not yet received and verified/);
    const feedRows = () =>
      db()
        .integrationFeedPending.count({ where: { transferId: confirmedId } })
        .then(async (n) => n + (await db().integrationFeedEntry.count({ where: { transferId: confirmedId } })));
    expect(await feedRows()).toBe(0);

    const list = await dashboardFetch(baseUrl, "/transfers/to-verify", { cookie: pharmacistCookie });
    expect(list.status).toBe(200);
    expect(list.text).toContain(confirmedId);
    expect(list.text).toMatch(/aria-label="Confirmed automatically, to verify: \d+"/);

    const byAdmin = await dashboardFetch(baseUrl, `/api/transfers/${confirmedId}/verify`, {
      method: "POST",
      cookie: adminCookie,
    });
    expect(byAdmin.status).toBe(403);

    const verified = await dashboardFetch<{ record: string }>(baseUrl, `/api/transfers/${confirmedId}/verify`, {
      method: "POST",
      cookie: pharmacistCookie,
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.record).toMatch(
      new RegExp(
        `^accepted automatically under store policy v2 \\(owner: Riley Shaw, PharmD, licence RPH-40417\\) at \\S+; received and verified by Riley Shaw, PharmD, licence RPH-40417 at \\S+$`,
      ),
    );
    expect(await feedRows()).toBe(1);
    const released = await dashboardFetch(baseUrl, `/api/transfers/${confirmedId}/fhir`, { cookie: pharmacistCookie });
    expect(released.status, released.text).toBe(200);
    const again = await dashboardFetch(baseUrl, `/api/transfers/${confirmedId}/verify`, {
      method: "POST",
      cookie: pharmacistCookie,
    });
    expect(again.status).toBe(409);
  });

  it("the record says 'not yet verified' until then; a concern keeps it unreleased and shows the sender's contact", async () => {
    const answer = await post(qualifying());
    const id = answer.body.metadata.referenceID;
    const page = await dashboardFetch(baseUrl, `/transfers/${id}/record`, { cookie: pharmacistCookie });
    expect(page.text).toMatch(
      /accepted automatically under store policy v2 \(owner: Riley Shaw, PharmD, licence RPH-40417\) at [^;]+; not yet received and verified by a pharmacist/,
    );
    const concern = await dashboardFetch<{ contact: { pharmacy: string; email: string } }>(
      baseUrl,
      `/api/transfers/${id}/concern`,
      {
        method: "POST",
        body: { note: "sig looks doubled" },
        cookie: pharmacistCookie,
      },
    );
    expect(concern.status, concern.text).toBe(200);
    expect(concern.body.contact.email).toContain("@");
    const fhir = await dashboardFetch(baseUrl, `/api/transfers/${id}/fhir`, { cookie: pharmacistCookie });
    expect(fhir.status).toBe(409);
  });

  it("never confirms a controlled substance: oxycodone (C-II) and alprazolam (C-IV)", async () => {
    await expectMiss(
      qualifying((r) => {
        r.prescription.medicationName = "Oxycodone Hydrochloride";
        r.prescription.drugStrength = "5 mg";
      }),
      /controlled substance \(C-II\)/,
    );
    await expectMiss(
      qualifying((r) => {
        r.prescription.medicationName = "Alprazolam";
        r.prescription.drugStrength = "0.5 mg";
      }),
      /controlled substance \(C-IV\)/,
    );
  });

  it("never confirms a drug the tables do not know", async () => {
    await expectMiss(
      qualifying((r) => {
        r.prescription.medicationName = "Zorvatinex";
      }),
      /not recognised/,
    );
  });

  it("listed allergies: not without the option; with it, amoxicillin with a penicillin allergy is still refused", async () => {
    const penicillin = (r: TransferRequest) => {
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
    };
    await expectMiss(qualifying(penicillin), /listed allergies/);
    expect((await setPolicy({ allowListedAllergies: true })).status).toBe(200);
    await expectMiss(
      qualifying((r) => {
        penicillin(r);
        r.prescription.medicationName = "Amoxicillin";
        r.prescription.drugStrength = "500 mg";
        r.prescription.drugForm = "Capsule";
      }),
      /allergy signal/,
    );
    // The same allergy with atorvastatin (no class in common) qualifies under the option.
    const ok = await post(qualifying(penicillin));
    expect(ok.body.metadata.responseType).toBe("CONFIRMED");
    expect((await setPolicy({ allowListedAllergies: false })).status).toBe(200);
  });

  it("a check with a warning: an expiration date within days", async () => {
    await expectMiss(
      qualifying((r) => {
        r.prescription.expirationDate = new Date(Date.now() + 2 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
      }),
      /Expiry: warning/,
    );
  });

  it("duplicate therapy: a second atorvastatin for the same patient", async () => {
    const first = qualifying();
    expect((await post(first)).body.metadata.responseType).toBe("CONFIRMED");
    await expectMiss(
      freshRequest((r) => {
        r.receivingPharmacy.npi = store.npi;
        r.patient = first.patient;
      }),
      /duplicate therapy/,
    );
  });

  it("an earlier rejection of the same prescription from this sender", async () => {
    const listed = qualifying((r) => {
      r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Sulfa drugs"] };
    });
    const id = await expectMiss(listed, /listed allergies/);
    const rejected = await dashboardFetch(baseUrl, `/api/transfers/${id}/reject`, {
      method: "POST",
      body: { errorType: "OTHER", description: "please call us about this prescription" },
      cookie: pharmacistCookie,
    });
    expect(rejected.status, rejected.text).toBe(200);
    await expectMiss(
      qualifying((r) => {
        r.prescription.rxNumber = listed.prescription.rxNumber;
      }),
      /earlier transfer of the same prescription was rejected/,
    );
  });

  it("stops at the store's hourly cap", async () => {
    const recent = await db().immediateConfirmation.count({ where: { storeId: store.storeId } });
    expect((await setPolicy({ hourlyCap: recent + 1 })).status).toBe(200);
    expect((await post(qualifying())).body.metadata.responseType).toBe("CONFIRMED");
    await expectMiss(qualifying(), /cap of \d+ automatic confirmations an hour/);
  });

  it("holds a cap above the in-flight margin exactly under concurrent requests", async () => {
    // 70 left: the first confirmations are judged on the per-store counts, the last ones counted exactly.
    const recent = await db().immediateConfirmation.count({ where: { storeId: store.storeId } });
    expect((await setPolicy({ hourlyCap: recent + 70 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 90 }, () => post(qualifying())));
    const types = answers.map((a) => a.body.metadata.responseType);
    expect(types.filter((t) => t === "CONFIRMED")).toHaveLength(70);
    expect(types.filter((t) => t === "RECEIVED")).toHaveLength(20);
    const missed = await db().transfer.findMany({
      where: {
        id: {
          in: answers
            .filter((a) => a.body.metadata.responseType === "RECEIVED")
            .map((a) => a.body.metadata.referenceID),
        },
      },
    });
    for (const row of missed) expect(row.immediateMiss).toMatch(/cap of \d+ automatic confirmations an hour/);
  });

  it("raises the alert once for a transfer not verified within the store's limit", async () => {
    expect((await setPolicy({ hourlyCap: 1000 })).status).toBe(200);
    const id = (await post(qualifying())).body.metadata.referenceID;
    expect(await claimOverdueVerifications()).not.toContain(id);
    // The policy's limit is 6 hours (set through the CLI above) of the store's opening time: a minute past it.
    const record = await db().immediateConfirmation.findUniqueOrThrow({ where: { transferId: id } });
    const store = await db().store.findUniqueOrThrow({
      where: { id: record.storeId },
      select: { openingHours: true, timeZone: true },
    });
    const due = verifyDueAt({ confirmedAt: record.confirmedAt, hours: 6, ...store });
    expect(due.getTime()).toBeGreaterThanOrEqual(record.confirmedAt.getTime() + 6 * 3_600_000);
    expect(await claimOverdueVerifications({ now: new Date(due.getTime() - 60_000) })).not.toContain(id);
    const later = new Date(due.getTime() + 60_000);
    expect(await claimOverdueVerifications({ now: later })).toContain(id);
    expect(await claimOverdueVerifications({ now: later })).not.toContain(id);
    const audit = await db().auditEvent.findFirst({
      where: { action: "transfer.immediate_verify_overdue", transferId: id },
    });
    expect(audit).not.toBeNull();
  });

  it("turned off, a qualifying transfer is RECEIVED again", async () => {
    expect((await setPolicy({ enabled: false })).status).toBe(200);
    const answer = await post(qualifying());
    expect(answer.body.metadata.responseType).toBe("RECEIVED");
  });
});

describe("a policy change in the middle of a judgment", () => {
  // A store of its own, its policy changed from this process: the server's cached policy goes stale, so its
  // judgments meet a policy other than the one they started with (PolicyMoved) and start again.
  let moving: { storeId: string; npi: string };
  const sulfa = (r: TransferRequest) => {
    r.receivingPharmacy.npi = moving.npi;
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Sulfa drugs"] };
  };

  beforeAll(async () => {
    moving = await addStore("Moving Policy Store");
    const on = await dashboardFetch(baseUrl, `/api/admin/stores/${moving.storeId}/immediate-confirm`, {
      method: "PUT",
      body: {
        enabled: true,
        ownerUserId: pharmacist.id,
        state: "TX",
        boardRule: "22 TAC 291.34(g)",
        hourlyCap: 10_000,
        allowListedAllergies: false,
      },
      cookie: adminCookie,
    });
    expect(on.status, on.text).toBe(200);
  });

  it("answers every request well formed, judged by the policy in force, while the policy keeps changing", async () => {
    // A listed allergy (sulfa, atorvastatin) qualifies only under the versions that allow listed allergies.
    const allows = new Map<number, boolean>();
    const first = await findImmediateConfirmPolicy(moving.storeId);
    allows.set(first.version, first.allowListedAllergies);
    let changing = true;
    const changes = (async () => {
      for (let allow = true; changing; allow = !allow) {
        const changed = await setImmediateConfirmPolicy({
          storeRef: moving.storeId,
          change: { allowListedAllergies: allow },
          actor: CLI_ACTOR,
        });
        allows.set(changed.version, changed.allowListedAllergies);
      }
    })();
    const requests = Array.from({ length: 60 }, () => qualifying(sulfa));
    const answers: Awaited<ReturnType<typeof send>>[] = [];
    try {
      for (let wave = 0; wave < requests.length; wave += 15) {
        answers.push(
          ...(await Promise.all(
            requests
              .slice(wave, wave + 15)
              .map((request) => send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) })),
          )),
        );
      }
    } finally {
      changing = false;
      await changes;
    }
    expect(allows.size).toBeGreaterThan(2);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(["CONFIRMED", "RECEIVED"]).toContain(answer.body.metadata.responseType);
      const id: string = answer.body.metadata.referenceID;
      const row = await db().transfer.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe(answer.body.metadata.responseType);
      const record = await db().immediateConfirmation.findUnique({ where: { transferId: id } });
      if (answer.body.metadata.responseType === "CONFIRMED") {
        // Confirmed under a version that allowed it, and recorded with that version.
        expect(record).not.toBeNull();
        expect(allows.get(record!.policyVersion)).toBe(true);
        expect(row.immediateMiss).toBeNull();
      } else {
        expect(record).toBeNull();
        expect(row.immediateMiss).toMatch(/listed allergies|policy changed while this transfer was judged/);
      }
    }
    // A replay returns the answer first given, whatever the policy says now.
    for (const [i, request] of requests.entries()) {
      const replay = await post(request);
      expect(replay.body).toEqual(answers[i]!.body);
    }
  });

  it("when the policy moves under every attempt, stores RECEIVED with the reason; a replay returns that answer", async () => {
    const stale = await findImmediatePolicy(moving.npi);
    expect(stale).not.toBeNull();
    // A new version after the read: every judgment by `stale` fails the version check.
    await setImmediateConfirmPolicy({
      storeRef: moving.storeId,
      change: { allowListedAllergies: false, hourlyCap: 9_999 },
      actor: CLI_ACTOR,
    });
    const request = qualifying((r) => (r.receivingPharmacy.npi = moving.npi));
    const { response, rowFor } = prepareTransfer(partner.partnerId, request, hashRequestContent(request));
    const answer = await storeUnderImmediatePolicy({ request, response, rowFor, policy: stale!, attempts: 1 });
    expect(answer?.metadata.responseType).toBe("RECEIVED");
    const row = await db().transfer.findUniqueOrThrow({ where: { id: answer!.metadata.referenceID } });
    expect(row).toMatchObject({ status: "RECEIVED", immediateMiss: MOVED_MISS });
    expect(await db().immediateConfirmation.count({ where: { transferId: row.id } })).toBe(0);
    const replay = await post(request);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(answer);

    // With attempts left, the same stale policy is read again and the transfer judged by the one in force.
    const next = qualifying((r) => (r.receivingPharmacy.npi = moving.npi));
    const prepared = prepareTransfer(partner.partnerId, next, hashRequestContent(next));
    const confirmed = await storeUnderImmediatePolicy({ request: next, ...prepared, policy: stale! });
    expect(confirmed?.metadata.responseType).toBe("CONFIRMED");
    const record = await db().immediateConfirmation.findUniqueOrThrow({
      where: { transferId: confirmed!.metadata.referenceID },
    });
    expect(record.policyVersion).toBe((await findImmediateConfirmPolicy(moving.storeId)).version);
  });
});
