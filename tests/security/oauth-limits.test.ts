// /oauth/token had no rate limit and a client could hold any number of live tokens. Limits per
// client and per address (shared in PostgreSQL; failures apart from successes) answer 429 with Retry-After in RFC 6749's error shape; a
// client holds at most OAUTH_MAX_LIVE_TOKENS_PER_CLIENT live tokens, issuing one more revokes the oldest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_SECRET_PREFIX } from "@/lib/auth/oauth";
import { generateSecret } from "@/lib/auth/secrets";
import { createTestPartner, freshRequest, send } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
let server: TestServer;

beforeAll(async () => {
  // One trusted hop, so that each test speaks from an address of its own (X-Forwarded-For).
  server = await startTestServer({
    databaseUrl,
    env: {
      TRUSTED_PROXIES: "1",
      OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: "3",
      OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS: "5",
      OAUTH_MAX_LIVE_TOKENS_PER_CLIENT: "2",
    },
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** The windows are wall-clock minutes: start early in one so a test cannot straddle two. */
async function startOfFreshWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

const address = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

async function token(from: string, clientId: string, clientSecret: string) {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { access_token?: string; error?: string; error_description?: string },
  };
}

describe("/oauth/token limits", () => {
  it("per client: the 4th request in a minute is 429 with Retry-After and an RFC 6749 error body, from any address", async () => {
    await startOfFreshWindow();
    const partner = await createTestPartner("OAuth limited");
    for (let i = 0; i < 3; i++)
      expect((await token(address(), partner.clientId, partner.clientSecret)).status).toBe(200);
    const refused = await token(address(), partner.clientId, partner.clientSecret);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("temporarily_unavailable");
    expect(refused.body.error_description).toMatch(/client/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  it("per address: guessing client ids from one address is cut off, but not a real client from there", async () => {
    await startOfFreshWindow();
    const from = address();
    const guess = (i: number) => token(from, `guess-${i}`, generateSecret(CLIENT_SECRET_PREFIX));
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    const refused = await guess(5);
    expect(refused.status).toBe(429);
    expect(refused.body.error_description).toMatch(/address/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Failures are counted apart from successes: a partner behind the same address is not refused.
    const partner = await createTestPartner("OAuth address");
    expect((await token(from, partner.clientId, partner.clientSecret)).status).toBe(200);
  });

  it("bounds live tokens per client: a third token revokes the first, the newest two keep working", async () => {
    await startOfFreshWindow();
    const partner = await createTestPartner("OAuth bound");
    const issued: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await token(address(), partner.clientId, partner.clientSecret);
      expect(answer.status).toBe(200);
      issued.push(answer.body.access_token!);
    }
    const statuses = [];
    for (const t of issued)
      statuses.push((await send(server.baseUrl, { body: freshRequest(), authorization: `Bearer ${t}` })).status);
    expect(statuses).toEqual([401, 200, 200]);
  });
});
