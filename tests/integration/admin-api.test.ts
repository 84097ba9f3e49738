// The admin JSON API over real HTTP with a real admin session: validation (400 naming the fields), unknown
// ids (404), conflicts (409, the last-admin rule among them), the effect of each operation on what partners
// and users can do, and the audit records it leaves (the admin's email and client address).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { freshRequest, send, senderKey } from "@/tests/support/api";
import {
  createTestUser,
  dashboardFetch,
  signedInCookie,
  signInOverHttp,
  type TestUser,
} from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
// The socket's address: a client's own X-Forwarded-For (sent below) is not believed (tests/security/forwarded-for.test.ts).
const CLIENT_ADDRESS = "127.0.0.1";

let admin: TestUser;
let cookie: string;

beforeAll(async () => {
  admin = await createTestUser("admin", "Admin Api Tester");
  cookie = await signedInCookie(baseUrl, admin);
});

type Problem = { type: string; status: number; detail: string; fields?: { field: string; message: string }[] };

function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return dashboardFetch<T>(baseUrl, path, {
    method,
    body,
    cookie,
    headers: { "x-forwarded-for": CLIENT_ADDRESS, ...headers },
  });
}

async function latestAudit(action: string, match: (details: Record<string, unknown>) => boolean = () => true) {
  const rows = await db().auditEvent.findMany({ where: { action }, orderBy: { id: "desc" }, take: 20 });
  return rows.find((r) => match((r.details ?? {}) as Record<string, unknown>)) ?? null;
}

async function expectAudited(action: string, match: (details: Record<string, unknown>) => boolean) {
  const row = await latestAudit(action, match);
  expect(row, action).not.toBeNull();
  expect(row!.actor).toBe(admin.email);
  expect(row!.userId).toBe(admin.id);
  expect(row!.clientAddress).toBe(CLIENT_ADDRESS);
  return row!;
}

type Created = {
  partnerId: string;
  apiKey: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
};

async function createPartner(name = `Admin API Sender ${randomUUID().slice(0, 6)}`): Promise<Created> {
  const res = await call<Created>("POST", "/api/admin/partners", {
    name,
    callbackUrl: "https://callbacks.admin-api.example/rx",
    npis: [],
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function transferStatus(authorization: string): Promise<number> {
  return (await send(baseUrl, { body: freshRequest(), authorization })).status;
}

describe("partners", () => {
  it("refuses a partner with missing or malformed fields, naming each field", async () => {
    const res = await call<Problem>("POST", "/api/admin/partners", {
      name: "",
      callbackUrl: "ftp://nope",
      npis: ["1234567890"],
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.fields?.map((f) => f.field).sort()).toEqual(["callbackUrl", "name", "npis.0"]);
    const credentials = await call<Problem>("POST", "/api/admin/partners", {
      name: "X",
      callbackUrl: "https://user:pw@partner.example/cb",
    });
    expect(credentials.status).toBe(400);
    expect(credentials.body.detail).toMatch(/credentials/);
    expect((await call("POST", "/api/admin/partners", "not an object")).status).toBe(400);
  });

  it("creates a partner whose credentials work once shown, lists it with its traffic, and audits it", async () => {
    const created = await createPartner();
    expect(created.apiKey).toMatch(/^rxk_/);
    expect(created.clientSecret).toMatch(/^rxs_/);
    expect(created.webhookSecret).toMatch(/^whsec_/);
    expect(await transferStatus(senderKey(created.apiKey))).toBe(200);
    await expectAudited("partner.created", (d) => d.partnerId === created.partnerId);

    const list = await call<{
      partners: {
        partnerId: string;
        traffic: { last24h: number; last7d: number; lastReceivedAt: string | null };
        activeKeys: number;
      }[];
    }>("GET", "/api/admin/partners");
    expect(list.status).toBe(200);
    const mine = list.body.partners.find((p) => p.partnerId === created.partnerId);
    expect(mine?.traffic.last24h).toBe(1);
    expect(mine?.traffic.last7d).toBe(1);
    expect(mine?.traffic.lastReceivedAt).not.toBeNull();
    expect(mine?.activeKeys).toBe(1);
    // Secrets are never listed again.
    expect(list.text).not.toContain(created.apiKey);
    expect(list.text).not.toContain(created.clientSecret);
    expect(list.text).not.toContain(created.webhookSecret);

    const details = await call<{
      apiKeys: { keyId: string; display: string; lastUsedAt: string | null }[];
      callbacks: { state: string };
    }>("GET", `/api/admin/partners/${created.partnerId}`);
    expect(details.status).toBe(200);
    expect(details.body.apiKeys[0]!.display).toBe(`${created.apiKey.slice(0, 8)}…${created.apiKey.slice(-4)}`);
    expect(details.body.apiKeys[0]!.lastUsedAt).not.toBeNull();
    expect(details.body.callbacks.state).toBe("ok");
    expect(details.text).not.toContain(created.apiKey);
  });

  it("answers 404 for a partner that does not exist, on every partner route", async () => {
    const id = "prt_doesnotexist";
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/admin/partners/${id}`],
      ["PATCH", `/api/admin/partners/${id}`, { name: "New" }],
      ["PUT", `/api/admin/partners/${id}/callback-url`, { callbackUrl: "https://x.example/cb" }],
      [
        "PUT",
        `/api/admin/partners/${id}/outbound-credential`,
        { headerName: "Authorization", headerValue: "Bearer x" },
      ],
      ["DELETE", `/api/admin/partners/${id}/outbound-credential`],
      ["PUT", `/api/admin/partners/${id}/suspension`, { suspended: true }],
      ["POST", `/api/admin/partners/${id}/webhook-secret`, { overlapHours: 1 }],
      ["POST", `/api/admin/partners/${id}/keys`, {}],
      ["POST", `/api/admin/partners/${id}/oauth-clients`],
      ["POST", "/api/admin/keys/key_doesnotexist/revoke"],
      ["POST", "/api/admin/keys/key_doesnotexist/rotate", { overlapHours: 1 }],
      ["POST", "/api/admin/oauth-clients/cli_doesnotexist/revoke"],
    ];
    for (const [method, path, body] of calls) {
      const res = await call<Problem>(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.body.type).toBe("urn:rx-transfer:problem:not_found");
    }
  });

  it("renames a partner and restricts its NPIs", async () => {
    const created = await createPartner();
    const bad = await call<Problem>("PATCH", `/api/admin/partners/${created.partnerId}`, {
      npis: ["1234567893", "12345"],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.[0]?.field).toBe("npis.1");
    expect((await call("PATCH", `/api/admin/partners/${created.partnerId}`, {})).status).toBe(400);

    const ok = await call<{ name: string; npis: string[] }>("PATCH", `/api/admin/partners/${created.partnerId}`, {
      name: "Renamed Sender",
      npis: ["1234567893"],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ name: "Renamed Sender", npis: ["1234567893"] });
    await expectAudited("partner.updated", (d) => d.partnerId === created.partnerId && d.name === "Renamed Sender");
    // The fixtures send from another NPI: now refused.
    const refused = await send(baseUrl, { body: freshRequest(), authorization: senderKey(created.apiKey) });
    expect(refused.status).toBe(400);
  });

  it("changes the callback URL (checked), the outbound credential (sealed) and rotates the webhook secret", async () => {
    const created = await createPartner();
    const badUrl = await call<Problem>("PUT", `/api/admin/partners/${created.partnerId}/callback-url`, {
      callbackUrl: "https://partner.example/cb#frag",
    });
    expect(badUrl.status).toBe(400);
    const url = await call<{ callbackUrl: string }>("PUT", `/api/admin/partners/${created.partnerId}/callback-url`, {
      callbackUrl: "https://new.partner.example/rx",
    });
    expect(url.status).toBe(200);
    expect(url.body.callbackUrl).toBe("https://new.partner.example/rx");
    await expectAudited("partner.callback_url_changed", (d) => d.partnerId === created.partnerId);

    const reserved = await call<Problem>("PUT", `/api/admin/partners/${created.partnerId}/outbound-credential`, {
      headerName: "webhook-signature",
      headerValue: "x",
    });
    expect(reserved.status).toBe(400);
    const badValue = await call<Problem>("PUT", `/api/admin/partners/${created.partnerId}/outbound-credential`, {
      headerName: "Authorization",
      headerValue: "a\nb",
    });
    expect(badValue.status).toBe(400);
    const set = await call("PUT", `/api/admin/partners/${created.partnerId}/outbound-credential`, {
      headerName: "Authorization",
      headerValue: "Bearer partner-token-123",
    });
    expect(set.status).toBe(200);
    const row = await db().partner.findUniqueOrThrow({ where: { id: created.partnerId } });
    expect(row.outboundHeaderName).toBe("Authorization");
    expect(row.outboundHeaderValue).not.toContain("partner-token-123");
    const details = await call("GET", `/api/admin/partners/${created.partnerId}`);
    expect(details.text).not.toContain("partner-token-123");
    expect((await call("DELETE", `/api/admin/partners/${created.partnerId}/outbound-credential`)).status).toBe(200);
    expect((await db().partner.findUniqueOrThrow({ where: { id: created.partnerId } })).outboundHeaderName).toBeNull();
    await expectAudited("partner.outbound_credential_removed", (d) => d.partnerId === created.partnerId);

    const tooLong = await call<Problem>("POST", `/api/admin/partners/${created.partnerId}/webhook-secret`, {
      overlapHours: 10_000,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields?.[0]?.field).toBe("overlapHours");
    const rotated = await call<{ webhookSecret: string; previousExpiresAt: string }>(
      "POST",
      `/api/admin/partners/${created.partnerId}/webhook-secret`,
      { overlapHours: 2 },
    );
    expect(rotated.status).toBe(201);
    expect(rotated.body.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.body.webhookSecret).not.toBe(created.webhookSecret);
    const after = await call<{ previousSecretExpiresAt: string | null }>(
      "GET",
      `/api/admin/partners/${created.partnerId}`,
    );
    expect(after.body.previousSecretExpiresAt).toBe(rotated.body.previousExpiresAt);
    await expectAudited(
      "partner.webhook_secret_rotated",
      (d) => d.partnerId === created.partnerId && d.overlapHours === 2,
    );
  });

  it("suspends a partner (its key is refused at once) and resumes it", async () => {
    const created = await createPartner();
    expect(
      (await call("PUT", `/api/admin/partners/${created.partnerId}/suspension`, { suspended: "yes" })).status,
    ).toBe(400);
    expect((await call("PUT", `/api/admin/partners/${created.partnerId}/suspension`, { suspended: true })).status).toBe(
      200,
    );
    expect(await transferStatus(senderKey(created.apiKey))).toBe(401);
    await expectAudited("partner.suspended", (d) => d.partnerId === created.partnerId);
    expect(
      (await call("PUT", `/api/admin/partners/${created.partnerId}/suspension`, { suspended: false })).status,
    ).toBe(200);
    expect(await transferStatus(senderKey(created.apiKey))).toBe(200);
  });
});

describe("API keys and OAuth clients", () => {
  it("creates a key (shown once), revokes it at once, and rotates with an overlap", async () => {
    const created = await createPartner();
    const badExpiry = await call<Problem>("POST", `/api/admin/partners/${created.partnerId}/keys`, {
      expiresInDays: 0,
    });
    expect(badExpiry.status).toBe(400);

    const key = await call<{ keyId: string; apiKey: string; expiresAt: string | null }>(
      "POST",
      `/api/admin/partners/${created.partnerId}/keys`,
      { expiresInDays: 30 },
    );
    expect(key.status).toBe(201);
    expect(Date.parse(key.body.expiresAt!)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(await transferStatus(senderKey(key.body.apiKey))).toBe(200);
    await expectAudited("api_key.created", (d) => d.keyId === key.body.keyId);

    const revoked = await call("POST", `/api/admin/keys/${key.body.keyId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(await transferStatus(senderKey(key.body.apiKey))).toBe(401);
    await expectAudited("api_key.revoked", (d) => d.keyId === key.body.keyId);
    // A revoked key cannot be rotated back to life.
    expect((await call("POST", `/api/admin/keys/${key.body.keyId}/rotate`, { overlapHours: 1 })).status).toBe(404);

    const badOverlap = await call<Problem>("POST", `/api/admin/keys/${created.keyId}/rotate`, { overlapHours: -1 });
    expect(badOverlap.status).toBe(400);
    const rotated = await call<{ keyId: string; apiKey: string; oldKeyExpiresAt: string; oldKeyId: string }>(
      "POST",
      `/api/admin/keys/${created.keyId}/rotate`,
      {
        overlapHours: 1,
      },
    );
    expect(rotated.status).toBe(201);
    expect(rotated.body.oldKeyId).toBe(created.keyId);
    expect(await transferStatus(senderKey(rotated.body.apiKey))).toBe(200);
    expect(await transferStatus(senderKey(created.apiKey))).toBe(200);
    const old = await db().apiKey.findUniqueOrThrow({ where: { id: created.keyId } });
    expect(old.expiresAt?.toISOString()).toBe(rotated.body.oldKeyExpiresAt);
    await expectAudited("api_key.rotated", (d) => d.keyId === created.keyId && d.newKeyId === rotated.body.keyId);
  });

  it("creates an OAuth client whose tokens stop working the moment it is revoked", async () => {
    const created = await createPartner();
    const client = await call<{ clientId: string; clientSecret: string }>(
      "POST",
      `/api/admin/partners/${created.partnerId}/oauth-clients`,
    );
    expect(client.status).toBe(201);
    await expectAudited("oauth_client.created", (d) => d.clientId === client.body.clientId);
    const tokenRes = await fetch(`${baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.body.clientId,
        client_secret: client.body.clientSecret,
      }),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    expect(await transferStatus(`Bearer ${token}`)).toBe(200);

    expect((await call("POST", `/api/admin/oauth-clients/${client.body.clientId}/revoke`)).status).toBe(200);
    expect(await transferStatus(`Bearer ${token}`)).toBe(401);
    await expectAudited("oauth_client.revoked", (d) => d.clientId === client.body.clientId);
  });
});

describe("users", () => {
  it("refuses invalid users and duplicates", async () => {
    const bad = await call<Problem>("POST", "/api/admin/users", {
      email: "not-an-email",
      role: "owner",
      password: "short",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.map((f) => f.field).sort()).toEqual(["email", "password", "role"]);
    const dup = await call<Problem>("POST", "/api/admin/users", {
      email: admin.email,
      role: "pharmacist",
      password: "long-enough-password",
    });
    expect(dup.status).toBe(409);
    expect((await call("PATCH", "/api/admin/users/usr_doesnotexist", { role: "admin" })).status).toBe(404);
    expect((await call("PATCH", "/api/admin/users/usr_doesnotexist", { disabled: true })).status).toBe(404);
    expect(
      (await call("PUT", "/api/admin/users/usr_doesnotexist/password", { password: "long-enough-password" })).status,
    ).toBe(404);
    expect((await call("PATCH", `/api/admin/users/${admin.id}`, {})).status).toBe(400);
    expect((await call("PATCH", `/api/admin/users/${admin.id}`, { role: "admin", disabled: false })).status).toBe(400);
  });

  it("creates a user who can sign in, changes their role, resets their password and disables them, ending their sessions each time", async () => {
    const email = `made-by-admin-${randomUUID().slice(0, 8)}@test.example`;
    const created = await call<{ userId: string }>("POST", "/api/admin/users", {
      email: email.toUpperCase(),
      name: "Made By Admin",
      role: "pharmacist",
      password: "first-password-1",
    });
    expect(created.status).toBe(201);
    const userId = created.body.userId;
    await expectAudited("user.created", (d) => d.userId === userId);
    const user: TestUser = {
      id: userId,
      email,
      password: "first-password-1",
      name: "Made By Admin",
      role: "pharmacist",
    };
    let theirCookie = await signedInCookie(baseUrl, user);
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie: theirCookie })).status).toBe(200);
    expect((await dashboardFetch(baseUrl, "/api/admin/users", { cookie: theirCookie })).status).toBe(403);

    expect((await call("PATCH", `/api/admin/users/${userId}`, { role: "superuser" })).status).toBe(400);
    expect((await call("PATCH", `/api/admin/users/${userId}`, { role: "admin" })).status).toBe(200);
    await expectAudited("user.role_changed", (d) => d.userId === userId && d.to === "admin");
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie: theirCookie })).status).toBe(401);
    theirCookie = await signedInCookie(baseUrl, user);
    expect((await dashboardFetch(baseUrl, "/api/admin/users", { cookie: theirCookie })).status).toBe(200);

    expect((await call("PUT", `/api/admin/users/${userId}/password`, { password: "short" })).status).toBe(400);
    expect((await call("PUT", `/api/admin/users/${userId}/password`, { password: "second-password-2" })).status).toBe(
      200,
    );
    await expectAudited("user.password_reset", (d) => d.userId === userId);
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie: theirCookie })).status).toBe(401);
    expect((await signInOverHttp(baseUrl, email, "first-password-1")).sessionCookie).toBeNull();
    user.password = "second-password-2";
    theirCookie = await signedInCookie(baseUrl, user);

    expect((await call("PATCH", `/api/admin/users/${userId}`, { disabled: true })).status).toBe(200);
    await expectAudited("user.disabled", (d) => d.userId === userId);
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie: theirCookie })).status).toBe(401);
    expect((await signInOverHttp(baseUrl, email, user.password)).sessionCookie).toBeNull();
    expect((await call("PATCH", `/api/admin/users/${userId}`, { disabled: false })).status).toBe(200);
    expect((await signInOverHttp(baseUrl, email, user.password)).sessionCookie).not.toBeNull();

    const list = await call<{ users: { userId: string; role: string; disabled: boolean }[] }>(
      "GET",
      "/api/admin/users",
    );
    expect(list.body.users.find((u) => u.userId === userId)).toMatchObject({ role: "admin", disabled: false });
    expect(list.text).not.toContain("passwordHash");
  });

  it("never lets the last active admin be disabled or demoted", async () => {
    // Make this test's admin the only active one for a moment (other test files' admins are restored after).
    const others = await db().user.findMany({
      where: { role: "admin", disabledAt: null, id: { not: admin.id } },
      select: { id: true },
    });
    await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: new Date() } });
    try {
      const disable = await call<Problem>("PATCH", `/api/admin/users/${admin.id}`, { disabled: true });
      expect(disable.status).toBe(409);
      expect(disable.body.detail).toMatch(/last active admin/);
      const demote = await call<Problem>("PATCH", `/api/admin/users/${admin.id}`, { role: "pharmacist" });
      expect(demote.status).toBe(409);
      const row = await db().user.findUniqueOrThrow({ where: { id: admin.id } });
      expect(row.role).toBe("admin");
      expect(row.disabledAt).toBeNull();
      expect((await call("GET", "/api/admin/users")).status).toBe(200);
    } finally {
      await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: null } });
    }
  });

  it("refuses changes sent from another site", async () => {
    const res = await call<Problem>(
      "POST",
      "/api/admin/users",
      { email: "x@y.example", role: "admin", password: "long-enough-password" },
      { origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(await db().user.findUnique({ where: { email: "x@y.example" } })).toBeNull();
  });
});

describe("stores", () => {
  it("adds a store that requests may then name, refuses bad and duplicate ones, and removes it", async () => {
    const bad = await call<Problem>("POST", "/api/admin/stores", {
      name: "",
      npi: "1234567890",
      dea: "XX1234567",
      addressLine1: "1 Main St",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.map((f) => f.field).sort()).toEqual(["city", "dea", "name", "npi", "postalCode", "state"]);

    const npi = "1558598797";
    await db().store.deleteMany({ where: { npi } });
    const added = await call<{ storeId: string }>("POST", "/api/admin/stores", {
      name: "Riverside East",
      npi,
      dea: "as1234563",
      addressLine1: "12 River Rd",
      city: "Philadelphia",
      state: "pa",
      postalCode: "19107",
    });
    expect(added.status, added.text).toBe(201);
    await expectAudited("store.added", (d) => d.storeId === added.body.storeId);
    const row = await db().store.findUniqueOrThrow({ where: { id: added.body.storeId } });
    expect(row.dea).toBe("AS1234563");
    expect(row.address).toMatchObject({ addressLine1: "12 River Rd", state: "PA", countryCode: "US" });
    expect((await call("POST", "/api/admin/stores", { name: "Again", npi })).status).toBe(409);

    const list = await call<{ stores: { storeId: string; configured: boolean; npi: string }[] }>(
      "GET",
      "/api/admin/stores",
    );
    expect(list.body.stores.some((s) => s.storeId === added.body.storeId)).toBe(true);
    const configured = list.body.stores.find((s) => s.configured);
    if (configured) expect((await call("DELETE", `/api/admin/stores/${configured.storeId}`)).status).toBe(409);
    expect(configured?.npi ?? env().PHARMACY_NPI).toBe(env().PHARMACY_NPI);

    expect((await call("DELETE", `/api/admin/stores/${added.body.storeId}`)).status).toBe(200);
    await expectAudited("store.removed", (d) => d.storeId === added.body.storeId);
    expect((await call("DELETE", `/api/admin/stores/${added.body.storeId}`)).status).toBe(404);
  });
});

describe("the audit log", () => {
  it("filters by user, action (exact or prefix), transfer and time, pages by id, and refuses bad queries", async () => {
    const created = await createPartner();
    await call("PATCH", `/api/admin/partners/${created.partnerId}`, { name: "Audit Filter Sender" });
    type Page = {
      items: {
        id: string;
        actor: string;
        action: string;
        transferId: string | null;
        at: string;
        clientAddress: string | null;
      }[];
      nextCursor: string | null;
    };

    const byUser = await call<Page>(
      "GET",
      `/api/admin/audit?user=${encodeURIComponent(admin.email.toUpperCase())}&limit=200`,
    );
    expect(byUser.status).toBe(200);
    expect(byUser.body.items.length).toBeGreaterThan(0);
    expect(byUser.body.items.every((e) => e.actor === admin.email)).toBe(true);
    const byUserId = await call<Page>("GET", `/api/admin/audit?user=${admin.id}&limit=200`);
    expect(byUserId.body.items.map((e) => e.id)).toEqual(byUser.body.items.map((e) => e.id));

    const exact = await call<Page>("GET", "/api/admin/audit?action=partner.updated");
    expect(exact.body.items.length).toBeGreaterThan(0);
    expect(exact.body.items.every((e) => e.action === "partner.updated")).toBe(true);
    const prefix = await call<Page>("GET", "/api/admin/audit?action=partner.*&limit=200");
    expect(new Set(prefix.body.items.map((e) => e.action))).toContain("partner.created");
    expect(prefix.body.items.every((e) => e.action.startsWith("partner."))).toBe(true);

    const referenceID = (await send(baseUrl, { body: freshRequest(), authorization: senderKey(created.apiKey) })).body
      .metadata.referenceID;
    const pharmacist = await createTestUser("pharmacist");
    const pharmacistCookie = await signedInCookie(baseUrl, pharmacist);
    expect((await dashboardFetch(baseUrl, `/api/transfers/${referenceID}`, { cookie: pharmacistCookie })).status).toBe(
      200,
    );
    const byTransfer = await call<Page>("GET", `/api/admin/audit?transfer=${referenceID}`);
    expect(byTransfer.body.items.length).toBeGreaterThan(0);
    expect(byTransfer.body.items.every((e) => e.transferId === referenceID)).toBe(true);

    const future = await call<Page>(
      "GET",
      `/api/admin/audit?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(future.body.items).toEqual([]);
    const past = await call<Page>("GET", `/api/admin/audit?to=${encodeURIComponent("2000-01-01T00:00:00Z")}`);
    expect(past.body.items).toEqual([]);

    // Keyset pages: disjoint, newest first, together the same as one big page.
    const first = await call<Page>("GET", "/api/admin/audit?limit=3");
    const second = await call<Page>("GET", `/api/admin/audit?limit=3&cursor=${first.body.nextCursor}`);
    const both = await call<Page>("GET", "/api/admin/audit?limit=6");
    expect([...first.body.items, ...second.body.items].map((e) => e.id)).toEqual(both.body.items.map((e) => e.id));
    const ids = both.body.items.map((e) => BigInt(e.id));
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
    const oldest = await call<Page>("GET", "/api/admin/audit?order=oldest&limit=2");
    expect(BigInt(oldest.body.items[0]!.id)).toBeLessThan(BigInt(oldest.body.items[1]!.id));

    for (const bad of [
      "cursor=abc",
      "action=DROP TABLE",
      "from=yesterday",
      "limit=0",
      "order=random",
      `from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
    ]) {
      const res = await call<Problem>("GET", `/api/admin/audit?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it("exports the matching records as CSV, neutralising spreadsheet formulas, and records the export", async () => {
    const created = await createPartner();
    const formula = '=HYPERLINK("http://evil.example","x")';
    expect((await call("PATCH", `/api/admin/partners/${created.partnerId}`, { name: formula })).status).toBe(200);

    const res = await fetch(
      `${baseUrl}/api/admin/audit/export?action=partner.updated&user=${encodeURIComponent(admin.email)}`,
      {
        headers: { cookie, "x-forwarded-for": CLIENT_ADDRESS },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-[\d-]+\.csv"$/);
    const csv = await res.text();
    const lines = csv.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      '"id","at","actor","user_id","action","transfer_id","client_address","details","prev_hash","hash"',
    );
    expect(lines.length - 1).toBe(Number(res.headers.get("x-record-count")));
    expect(lines.slice(1).every((l) => l.includes('"partner.updated"') && l.includes(`"${admin.email}"`))).toBe(true);
    // The name is inside the JSON details, and the details field does not start with "=": still quoted and escaped.
    expect(csv).toContain('""name"":""=HYPERLINK(\\""http://evil.example\\"",\\""x\\"")""');
    await expectAudited("audit.exported", (d) => (d.filters as Record<string, string>).action === "partner.updated");

    // A client address can no longer carry a formula: X-Forwarded-For is not believed, and a trusted
    // proxy's entries are kept only when they are IP addresses (lib/http/client-address.ts).
    expect(
      (
        await call(
          "PATCH",
          `/api/admin/partners/${created.partnerId}`,
          { name: "Formula Address Sender" },
          { "x-forwarded-for": "=2+5" },
        )
      ).status,
    ).toBe(200);
    const again = await call("GET", `/api/admin/audit/export?action=partner.updated&user=${admin.id}`);
    expect(again.status).toBe(200);
    const row = again.text.split("\r\n").find((l) => l.includes("Formula Address Sender"));
    expect(row).toContain(`"127.0.0.1"`);
    expect(row).not.toContain("2+5");
  });

  it("verifies the hash chain on request and records that it did", async () => {
    const res = await call<{ ok: boolean; records: number }>("POST", "/api/admin/audit/verify");
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.records).toBeGreaterThan(0);
    await expectAudited("audit.chain_verified", (d) => d.ok === true);
  });
});
