// Two admin settings, over real HTTP with an admin session and through the CLI as an operator runs
// it: a pharmacist's licence number (set at creation or later, cleared, validated, audited, copied into the
// decisions they make) and a store's drug rules (state schedules and prescription validity: validated field by
// field, audited with old and new values, and the store's pending transfers classified again at once).
import { randomInt, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { computeNpiCheckDigit } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { runCli } from "@/tests/support/cli";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
// The socket's address: the X-Forwarded-For sent below is not believed without TRUSTED_PROXIES.
const CLIENT_ADDRESS = "127.0.0.1";

let admin: TestUser;
let adminCookie: string;
let pharmacistCookie: string;
let partner: CreatedPartner;

type Problem = { status: number; detail: string; fields?: { field: string; message: string }[] };
type UserRow = { userId: string; email: string; licenseNumber: string | null };
type StoreRow = {
  storeId: string;
  npi: string;
  extraSchedules: { substance: string; schedule: string }[];
  rxExpiryMonths: number;
};

function call<T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown, cookie = adminCookie) {
  return dashboardFetch<T>(baseUrl, urlPath, { method, body, cookie, headers: { "x-forwarded-for": CLIENT_ADDRESS } });
}

async function cli(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  return runCli(args, { DATABASE_URL: databaseUrl, ...TEST_SECRETS });
}

async function lastAudit(action: string) {
  return db().auditEvent.findFirstOrThrow({ where: { action }, orderBy: { id: "desc" } });
}

function randomNpi(): string {
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

async function addStore(name: string): Promise<{ storeId: string; npi: string }> {
  const npi = randomNpi();
  const added = await call<{ storeId: string }>("POST", "/api/admin/stores", { name, npi });
  expect(added.status, added.text).toBe(201);
  return { storeId: added.body.storeId, npi };
}

async function receiveAt(npi: string, medicationName: string): Promise<string> {
  const request = freshRequest((r) => {
    r.receivingPharmacy.npi = npi;
    r.prescription.medicationName = medicationName;
    r.prescription.drugStrength = "300 mg";
    r.prescription.drugForm = "Capsule";
  });
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

async function scheduleColumn(id: string): Promise<string | null> {
  return (await db().transfer.findUniqueOrThrow({ where: { id }, select: { drugSchedule: true } })).drugSchedule;
}

beforeAll(async () => {
  admin = await createTestUser("admin", "Licence Rules Admin");
  adminCookie = await signedInCookie(baseUrl, admin);
  pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist"));
  partner = await createTestPartner("Store rules");
});

describe("a pharmacist's licence number (admin API)", () => {
  it("is set at creation, shown in the list, changed, cleared, validated and audited", async () => {
    const email = `lic-${randomUUID().slice(0, 8)}@test.example`;
    const bad = await call<Problem>("POST", "/api/admin/users", {
      email,
      role: "pharmacist",
      password: "long-enough-1",
      licenseNumber: "RPH#1!",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.map((f) => f.field)).toEqual(["licenseNumber"]);

    const created = await call<{ userId: string }>("POST", "/api/admin/users", {
      email,
      role: "pharmacist",
      password: "long-enough-1",
      name: "Lena Licence",
      licenseNumber: "  RPH-0099   PA ",
    });
    expect(created.status, created.text).toBe(201);
    const userId = created.body.userId;
    const listed = async () =>
      (await call<{ users: UserRow[] }>("GET", "/api/admin/users")).body.users.find((u) => u.userId === userId);
    expect((await listed())?.licenseNumber).toBe("RPH-0099 PA");
    expect((await lastAudit("user.created")).details).toMatchObject({ userId, licenseNumber: "RPH-0099 PA" });

    const changed = await call("PUT", `/api/admin/users/${userId}/license`, { licenseNumber: "RPH-0100" });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ userId, licenseNumber: "RPH-0100" });
    expect((await listed())?.licenseNumber).toBe("RPH-0100");
    const audit = await lastAudit("user.license_changed");
    expect(audit).toMatchObject({
      actor: admin.email,
      userId: admin.id,
      clientAddress: CLIENT_ADDRESS,
      details: { userId, from: "RPH-0099 PA", to: "RPH-0100" },
    });

    for (const licenseNumber of ["x".repeat(41), "-RPH", "RPH_1", 42]) {
      const refused = await call<Problem>("PUT", `/api/admin/users/${userId}/license`, { licenseNumber });
      expect(refused.status, String(licenseNumber)).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      expect(refused.body.fields?.[0]?.field).toBe("licenseNumber");
    }
    expect((await call<Problem>("PUT", `/api/admin/users/${userId}/license`, {})).status).toBe(400);
    expect((await listed())?.licenseNumber).toBe("RPH-0100");

    expect((await call("PUT", `/api/admin/users/${userId}/license`, { licenseNumber: "" })).body).toEqual({
      userId,
      licenseNumber: null,
    });
    expect((await listed())?.licenseNumber).toBeNull();
    expect((await lastAudit("user.license_changed")).details).toMatchObject({ userId, from: "RPH-0100", to: null });
    expect((await call("PUT", `/api/admin/users/${userId}/license`, { licenseNumber: null })).status).toBe(200);

    expect((await call("PUT", "/api/admin/users/usr_nope/license", { licenseNumber: "RPH-1" })).status).toBe(404);
    expect(
      (await call("PUT", `/api/admin/users/${userId}/license`, { licenseNumber: "RPH-1" }, pharmacistCookie)).status,
    ).toBe(403);
  });
});

describe("a store's drug rules (admin API)", () => {
  it("a store added by an admin receives transfers at once, though /v1 had just read the store list", async () => {
    // /v1 under `npm start` runs outside Next's bundles, with its own copy of the store directory module:
    // the admin API's forget must reach that copy too (lib/stores/store-npis.ts).
    const before = await addStore("Warm Cache");
    await receiveAt(before.npi, "Lisinopril");
    const added = await addStore("Added Just Now");
    expect(await receiveAt(added.npi, "Lisinopril")).toMatch(/^trf_/);
  });

  it("sets state schedules and prescription validity, audited with old and new values, and re-classifies pending transfers", async () => {
    const store = await addStore("Rules East");
    const gabapentin = await receiveAt(store.npi, "Gabapentin");
    expect(await scheduleColumn(gabapentin)).toBe("none");
    const listed = async () =>
      (await call<{ stores: StoreRow[] }>("GET", "/api/admin/stores")).body.stores.find(
        (s) => s.storeId === store.storeId,
      );
    expect(await listed()).toMatchObject({ extraSchedules: [], rxExpiryMonths: 12 });

    const saved = await call<StoreRow & { reclassified: number }>("PATCH", `/api/admin/stores/${store.storeId}`, {
      extraSchedules: [{ substance: "Gabapentin", schedule: "V" }],
      rxExpiryMonths: 6,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      storeId: store.storeId,
      npi: store.npi,
      extraSchedules: [{ substance: "gabapentin", schedule: "V" }],
      rxExpiryMonths: 6,
    });
    expect(saved.body.reclassified).toBeGreaterThanOrEqual(1);
    expect(await scheduleColumn(gabapentin)).toBe("V");
    expect(await listed()).toMatchObject({
      extraSchedules: [{ substance: "gabapentin", schedule: "V" }],
      rxExpiryMonths: 6,
    });
    const audit = await lastAudit("store.rules_changed");
    expect(audit).toMatchObject({
      actor: admin.email,
      clientAddress: CLIENT_ADDRESS,
      details: {
        storeId: store.storeId,
        npi: store.npi,
        from: { extraSchedules: [], rxExpiryMonths: 12 },
        to: { extraSchedules: [{ substance: "gabapentin", schedule: "V" }], rxExpiryMonths: 6 },
      },
    });

    // The queue reads the new schedule.
    const queue = await call<{ items: { referenceID: string }[] }>(
      "GET",
      `/api/transfers?status=RECEIVED&schedule=V&sort=newest`,
      undefined,
      pharmacistCookie,
    );
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.items.map((i) => i.referenceID)).toContain(gabapentin);

    // One rule alone; the other stays. Validity decides the expiry check: the pending transfer is classified again.
    expect((await call("PATCH", `/api/admin/stores/${store.storeId}`, { rxExpiryMonths: 24 })).body).toMatchObject({
      extraSchedules: [{ substance: "gabapentin" }],
      rxExpiryMonths: 24,
      reclassified: 1,
    });
    // Clearing the state schedules makes gabapentin federal again: not controlled.
    expect((await call("PATCH", `/api/admin/stores/${store.storeId}`, { extraSchedules: [] })).status).toBe(200);
    expect(await scheduleColumn(gabapentin)).toBe("none");
  });

  it("refuses a bad rule with a 400 naming the field, and changes nothing", async () => {
    const store = await addStore("Rules West");
    const cases: [unknown, RegExp][] = [
      [{ extraSchedules: [{ substance: "gabapentin", schedule: "VI" }] }, /extraSchedules\.0\.schedule/],
      [{ extraSchedules: [{ substance: "", schedule: "V" }] }, /extraSchedules\.0\.substance/],
      [{ extraSchedules: "gabapentin:V" }, /extraSchedules/],
      [{ rxExpiryMonths: 0 }, /rxExpiryMonths/],
      [{ rxExpiryMonths: 61 }, /rxExpiryMonths/],
      [{ rxExpiryMonths: 1.5 }, /rxExpiryMonths/],
      [
        {
          extraSchedules: [
            { substance: "gabapentin", schedule: "V" },
            { substance: "Gabapentin", schedule: "IV" },
          ],
        },
        /gabapentin is listed twice/,
      ],
      [{}, /give extraSchedules or rxExpiryMonths/],
    ];
    for (const [body, detail] of cases) {
      const answer = await call<Problem>("PATCH", `/api/admin/stores/${store.storeId}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect(await db().store.findUniqueOrThrow({ where: { id: store.storeId } })).toMatchObject({
      extraSchedules: [],
      rxExpiryMonths: 12,
    });
    expect((await call("PATCH", "/api/admin/stores/str_nope", { rxExpiryMonths: 6 })).status).toBe(404);
    expect(
      (await call("PATCH", `/api/admin/stores/${store.storeId}`, { rxExpiryMonths: 6 }, pharmacistCookie)).status,
    ).toBe(403);
  });
});

describe("npm run cli (licence number, store rules)", () => {
  it("user create --license, user license --license | --clear, user list", async () => {
    const email = `cli-lic-${randomUUID().slice(0, 8)}@test.example`;
    const created = await cli(
      "user",
      "create",
      "--email",
      email,
      "--password",
      "long-enough-2",
      "--role",
      "pharmacist",
      "--license",
      "RPH-7",
    );
    expect(created.code).toBe(0);
    const userId = created.json.userId as string;
    const list = async () => ((await cli("user", "list")).json.users as UserRow[]).find((u) => u.userId === userId);
    expect((await list())?.licenseNumber).toBe("RPH-7");

    expect((await cli("user", "license", email, "--license", "RPH 8")).json).toEqual({
      userId,
      licenseNumber: "RPH 8",
    });
    expect(await lastAudit("user.license_changed")).toMatchObject({
      actor: "cli",
      userId: null,
      details: { userId, from: "RPH-7", to: "RPH 8" },
    });
    expect((await cli("user", "license", userId, "--clear")).json).toEqual({ userId, licenseNumber: null });
    expect((await list())?.licenseNumber).toBeNull();

    const bad = await cli("user", "license", email, "--license", "RPH!");
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/Licence number/) },
    });
    expect((await cli("user", "license", email)).code).toBe(2);
    expect((await cli("user", "license", email, "--license", "X", "--clear")).code).toBe(2);
    expect(
      (
        await cli(
          "user",
          "create",
          "--email",
          `x-${email}`,
          "--password",
          "long-enough-2",
          "--role",
          "pharmacist",
          "--license",
          "a".repeat(41),
        )
      ).code,
    ).toBe(1);
  });

  it("store rules by NPI or id, store list, and errors naming the option", async () => {
    const store = await addStore("Rules CLI");
    const pending = await receiveAt(store.npi, "Gabapentin");
    const set = await cli(
      "store",
      "rules",
      store.npi,
      "--extra-schedules",
      "gabapentin:V, carisoprodol:C-IV",
      "--rx-expiry-months",
      "9",
    );
    expect(set.code, JSON.stringify(set.json)).toBe(0);
    expect(set.json).toMatchObject({
      storeId: store.storeId,
      extraSchedules: [
        { substance: "gabapentin", schedule: "V" },
        { substance: "carisoprodol", schedule: "IV" },
      ],
      rxExpiryMonths: 9,
    });
    expect(await scheduleColumn(pending)).toBe("V");
    expect(await lastAudit("store.rules_changed")).toMatchObject({
      actor: "cli",
      details: { storeId: store.storeId, from: { rxExpiryMonths: 12 }, to: { rxExpiryMonths: 9 } },
    });

    const listed = ((await cli("store", "list")).json.stores as StoreRow[]).find((s) => s.storeId === store.storeId);
    expect(listed).toMatchObject({
      rxExpiryMonths: 9,
      extraSchedules: [{ substance: "gabapentin" }, { substance: "carisoprodol" }],
    });

    expect((await cli("store", "rules", store.storeId, "--extra-schedules", "")).json).toMatchObject({
      extraSchedules: [],
      rxExpiryMonths: 9,
    });
    expect(await scheduleColumn(pending)).toBe("none");

    const badSchedule = await cli("store", "rules", store.npi, "--extra-schedules", "gabapentin:VI");
    expect(badSchedule.code).toBe(1);
    expect(badSchedule.json).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/^--extra-schedules: .*schedule/) },
    });
    const badMonths = await cli("store", "rules", store.npi, "--rx-expiry-months", "twelve");
    expect(badMonths.json).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/--rx-expiry-months/) },
    });
    const tooMany = await cli("store", "rules", store.npi, "--rx-expiry-months", "99");
    expect(tooMany.json).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/^--rx-expiry-months: at most 60 months/) },
    });
    expect((await cli("store", "rules", store.npi)).code).toBe(2);
    expect((await cli("store", "rules", "1234567893999", "--rx-expiry-months", "6")).json).toMatchObject({
      error: { code: "not_found" },
    });
  });
});
