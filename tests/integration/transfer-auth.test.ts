// Authentication of /v1 over real HTTP: API keys in every accepted form, OAuth client credentials, and
// the refusals (401 with WWW-Authenticate and a TransferResponse envelope).
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { revokeOAuthClient } from "@/lib/auth/revoke-oauth-client";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;

beforeAll(async () => {
  partner = await createTestPartner("Auth");
});

async function token(body: URLSearchParams, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

describe("API keys", () => {
  it.each([
    ["senderKey <key>", (k: string) => `senderKey ${k}`],
    ["scheme word in any case", (k: string) => `SENDERKEY ${k}`],
    ["extra spaces", (k: string) => `  senderkey   ${k}  `],
    ["the bare key, as the sender's curl example sends it", (k: string) => k],
  ])("accepts %s", async (_name, form) => {
    const answer = await send(baseUrl, { body: freshRequest(), authorization: form(partner.apiKey) });
    expectEnvelope(answer);
    expect(answer.status).toBe(200);
    expect(answer.body.metadata.responseType).toBe("RECEIVED");
  });

  it.each([
    ["no Authorization header", null, "missing"],
    ["an unknown key", "senderKey rxk_0000000000000000000000000000000000AA", "not valid"],
    ["a key with a broken checksum", "", "not valid"],
    ["an unsupported scheme", "Digest abc", "not supported"],
    ["a bare string that is not one of our keys", "hello", "not supported"],
  ])("refuses %s with 401 and WWW-Authenticate, before the body is read", async (_name, authorization, words) => {
    const request = freshRequest();
    const auth =
      authorization === ""
        ? senderKey(partner.apiKey.slice(0, -1) + (partner.apiKey.endsWith("A") ? "B" : "A"))
        : authorization;
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toMatch(/senderKey/);
    expect(answer.headers.get("www-authenticate")).toMatch(/Bearer/);
    // The body of an unknown caller is not read, so its requestID is not echoed.
    expect(answer.body.requestID).toBe("");
    expect(answer.body.metadata.responseType).toBe("ERROR");
    expect(answer.body.error?.description).toContain(words);
  });

  it("refuses a revoked key at once, and an expired one", async () => {
    const key = await createApiKey({ partnerId: partner.partnerId });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) })).status).toBe(200);
    await revokeApiKey({ keyId: key.keyId });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) })).status).toBe(401);

    const expiring = await createApiKey({ partnerId: partner.partnerId, expiresAt: new Date(Date.now() + 60_000) });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(expiring.apiKey) })).status).toBe(200);
    await db().apiKey.update({ where: { id: expiring.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(expiring.apiKey) })).status).toBe(401);
  });

  it("records last use, at most once a minute", async () => {
    const key = await createApiKey({ partnerId: partner.partnerId });
    await send(baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) });
    const first = (await db().apiKey.findUniqueOrThrow({ where: { id: key.keyId } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await send(baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) });
    const second = (await db().apiKey.findUniqueOrThrow({ where: { id: key.keyId } })).lastUsedAt;
    expect(second?.getTime()).toBe(first?.getTime());
  });

  it("refuses every key of a suspended partner", async () => {
    const suspended = await createTestPartner("Suspended");
    await db().partner.update({ where: { id: suspended.partnerId }, data: { suspendedAt: new Date() } });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(suspended.apiKey) })).status).toBe(
      401,
    );
  });
});

describe("OAuth client credentials", () => {
  it("issues a short-lived bearer token with HTTP Basic, and it authenticates /v1", async () => {
    const t = await token(new URLSearchParams({ grant_type: "client_credentials" }), {
      authorization: basic(partner.clientId, partner.clientSecret),
    });
    expect(t.status).toBe(200);
    expect(t.headers.get("cache-control")).toBe("no-store");
    expect(t.body.token_type).toBe("Bearer");
    expect(t.body.expires_in).toBeGreaterThan(0);
    expect(t.body.expires_in).toBeLessThanOrEqual(3600);
    const answer = await send(baseUrl, {
      body: freshRequest(),
      authorization: `Bearer ${String(t.body.access_token)}`,
    });
    expect(answer.status).toBe(200);
    const lower = await send(baseUrl, { body: freshRequest(), authorization: `bearer ${String(t.body.access_token)}` });
    expect(lower.status).toBe(200);
  });

  it("issues a token with client_id and client_secret form fields", async () => {
    const t = await token(
      new URLSearchParams({
        grant_type: "client_credentials",
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      }),
    );
    expect(t.status).toBe(200);
    expect(typeof t.body.access_token).toBe("string");
  });

  it.each([
    ["a wrong secret", { grant_type: "client_credentials", client_id: "x", client_secret: "y" }, 401, "invalid_client"],
    ["no client authentication", { grant_type: "client_credentials" }, 401, "invalid_client"],
    [
      "another grant type",
      { grant_type: "password", client_id: "x", client_secret: "y" },
      400,
      "unsupported_grant_type",
    ],
    ["no grant type", { client_id: "x", client_secret: "y" }, 400, "invalid_request"],
  ])("refuses %s", async (_name, fields, status, error) => {
    const t = await token(new URLSearchParams(fields as Record<string, string>));
    expect(t.status).toBe(status);
    expect(t.body.error).toBe(error);
    if (status === 401) expect(t.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("refuses the right client id with a wrong secret", async () => {
    const t = await token(new URLSearchParams({ grant_type: "client_credentials" }), {
      authorization: basic(
        partner.clientId,
        `${partner.clientSecret.slice(0, -1)}${partner.clientSecret.endsWith("x") ? "y" : "x"}`,
      ),
    });
    expect(t.status).toBe(401);
    expect(t.body.error).toBe("invalid_client");
  });

  it("kills the client's tokens when the client is revoked, and refuses a new token", async () => {
    const other = await createTestPartner("Revoked client");
    const t = await token(new URLSearchParams({ grant_type: "client_credentials" }), {
      authorization: basic(other.clientId, other.clientSecret),
    });
    const bearer = `Bearer ${String(t.body.access_token)}`;
    expect((await send(baseUrl, { body: freshRequest(), authorization: bearer })).status).toBe(200);
    await revokeOAuthClient({ clientId: other.clientId });
    const refused = await send(baseUrl, { body: freshRequest(), authorization: bearer });
    expect(refused.status).toBe(401);
    expectEnvelope(refused);
    const again = await token(new URLSearchParams({ grant_type: "client_credentials" }), {
      authorization: basic(other.clientId, other.clientSecret),
    });
    expect(again.status).toBe(401);
  });

  it("refuses an expired token", async () => {
    const t = await token(new URLSearchParams({ grant_type: "client_credentials" }), {
      authorization: basic(partner.clientId, partner.clientSecret),
    });
    await db().$executeRaw`UPDATE oauth_tokens SET expires_at = now() - interval '1 second'`;
    const answer = await send(baseUrl, {
      body: freshRequest(),
      authorization: `Bearer ${String(t.body.access_token)}`,
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error?.description).toContain("access token");
  });
});
