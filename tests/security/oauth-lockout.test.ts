// A stranger who knows a partner's client_id (not a secret, RFC 6749 §2.2) could lock it out of /oauth/token:
// the per-client limit was counted before the secret was checked, failures and successes in one count. Now a
// secret whose built-in checksum is wrong is refused before anything is counted, failures are counted per
// client and per address apart from successes, and a partner presenting its correct secret is never refused
// because of others' failures. The server runs with the default limits (30 a minute per client, 120 per address).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_SECRET_PREFIX } from "@/lib/auth/oauth";
import { generateSecret } from "@/lib/auth/secrets";
import { createTestPartner } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
let server: TestServer;

beforeAll(async () => {
  // One trusted hop, so that each test speaks from addresses of its own (X-Forwarded-For).
  server = await startTestServer({
    databaseUrl,
    env: { TRUSTED_PROXIES: "1", OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: "30", OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS: "120" },
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** The windows are wall-clock minutes: start early in one so a test cannot straddle two. */
async function startOfFreshWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

let lastOctet = 0;
const address = () => `203.0.113.${(lastOctet = (lastOctet % 250) + 1)}`;

async function token(from: string, clientId: string, clientSecret: string) {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string; error?: string } };
}

/** Statuses of `count` requests, in order. */
async function statuses(count: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await send()).status);
  return out;
}

/** A secret of the right form with a valid checksum: it costs a lookup, so it is counted when it fails. */
const wellFormedWrongSecret = () => generateSecret(CLIENT_SECRET_PREFIX);

describe("/oauth/token cannot be used to lock a partner out", () => {
  it("after 40 wrong secrets in a minute from one address, the partner's correct request succeeds, from anywhere", async () => {
    await startOfFreshWindow();
    const partner = await createTestPartner("Lockout target");
    const attacker = address();
    const wrong = await statuses(40, () => token(attacker, partner.clientId, wellFormedWrongSecret()));
    expect(wrong.slice(0, 30).every((s) => s === 401)).toBe(true);
    // Past the per-client failure limit the attacker's own attempts are slowed down …
    expect(wrong.slice(30).every((s) => s === 429)).toBe(true);
    // … but never the partner's.
    expect((await token(address(), partner.clientId, partner.clientSecret)).status).toBe(200);
    expect((await token(attacker, partner.clientId, partner.clientSecret)).status).toBe(200);
  });

  it("one address against four partners: every partner still gets its token", async () => {
    await startOfFreshWindow();
    const partners = await Promise.all([1, 2, 3, 4].map((i) => createTestPartner(`Lockout ${i}`)));
    const attacker = address();
    const seen = new Set<number>();
    for (let round = 0; round < 35; round++)
      for (const p of partners) seen.add((await token(attacker, p.clientId, wellFormedWrongSecret())).status);
    // 140 failures from one address: past its failure limit of 120 the address is answered 429.
    expect([...seen].sort()).toEqual([401, 429]);
    for (const p of partners) {
      const answer = await token(address(), p.clientId, p.clientSecret);
      expect(answer.status).toBe(200);
      expect(answer.body.access_token).toMatch(/^rxt_/);
    }
    expect((await token(attacker, partners[0]!.clientId, partners[0]!.clientSecret)).status).toBe(200);
  });

  it("a secret with a wrong checksum is refused before anything is counted", async () => {
    await startOfFreshWindow();
    const partner = await createTestPartner("Lockout checksum");
    const attacker = address();
    const mistyped = `${partner.clientSecret.slice(0, -1)}${partner.clientSecret.endsWith("a") ? "b" : "a"}`;
    const refused = await statuses(60, () => token(attacker, partner.clientId, mistyped));
    expect(new Set(refused)).toEqual(new Set([401]));
    // Nothing was counted: the client's 30 failures a minute are all still there.
    const counted = await statuses(31, () => token(attacker, partner.clientId, wellFormedWrongSecret()));
    expect(counted.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(counted[30]).toBe(429);
  });

  it("failures are counted per client and address apart from successes: 30 failures, then 30 tokens", async () => {
    await startOfFreshWindow();
    const partner = await createTestPartner("Lockout apart");
    const from = address();
    expect(new Set(await statuses(30, () => token(from, partner.clientId, wellFormedWrongSecret())))).toEqual(
      new Set([401]),
    );
    expect(new Set(await statuses(30, () => token(from, partner.clientId, partner.clientSecret)))).toEqual(
      new Set([200]),
    );
    // The success budget is the client's own: its 31st token in the minute waits.
    expect((await token(from, partner.clientId, partner.clientSecret)).status).toBe(429);
  });
});
