// Rate limits on /v1 hold across several instances of the service: their counters live in PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/create-api-key";
import { db } from "@/lib/db/prisma";
import { consumeRateLimit, leaseSize } from "@/lib/rate-limit/consume-rate-limit";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const LIMIT = 5;
let servers: TestServer[] = [];
let partner: CreatedPartner;

beforeAll(async () => {
  servers = await Promise.all(
    [0, 1].map(() => startTestServer({ databaseUrl, env: { V1_RATE_LIMIT_PER_MINUTE: String(LIMIT) } })),
  );
  partner = await createTestPartner("Rate limited");
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** The window is a wall-clock minute: start a test early in one so it cannot straddle two. */
async function startOfFreshWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

describe("rate limits on /v1", () => {
  it("count one budget per credential across two server instances, then answer 429 with Retry-After", async () => {
    await startOfFreshWindow();
    const key = await createApiKey({ partnerId: partner.partnerId });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const answer = await send(servers[i % 2]!.baseUrl, {
        body: freshRequest(),
        authorization: senderKey(key.apiKey),
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));

    const request = freshRequest();
    const refused = await send(servers[1]!.baseUrl, { body: request, authorization: senderKey(key.apiKey) });
    expectEnvelope(refused);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.type).toBe("OTHER");
    // Refused before the body is read: no requestID to echo.
    expect(refused.body.requestID).toBe("");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another credential of the same partner has its own budget.
    const other = await createApiKey({ partnerId: partner.partnerId });
    expect(
      (await send(servers[0]!.baseUrl, { body: freshRequest(), authorization: senderKey(other.apiKey) })).status,
    ).toBe(200);
  });
});

describe("rate-limit leases", () => {
  const bucketCount = async (key: string) =>
    (await db().$queryRaw<{ count: number }[]>`SELECT count FROM rate_limit_buckets WHERE key = ${key}`)[0]?.count ?? 0;

  it("allow exactly the limit from one process, many at once, with one write per lease", async () => {
    await startOfFreshWindow();
    const limit = 600;
    const key = `test:lease:${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: limit + 25 }, () => consumeRateLimit(key, limit, 60)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(limit);
    const refused = answers.filter((a) => !a.allowed);
    expect(refused).toHaveLength(25);
    for (const a of refused) expect(a.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // 60 leases of 10 granted the budget, one more found it spent: nothing asked per request.
    expect(leaseSize(limit)).toBe(10);
    expect(await bucketCount(key)).toBe(limit + leaseSize(limit));
    expect((await consumeRateLimit(key, limit, 60)).allowed).toBe(false);
  });

  it("lease one at a time under 120 a minute, so small limits stay exact across instances", async () => {
    expect(leaseSize(5)).toBe(1);
    expect(leaseSize(119)).toBe(1);
    expect(leaseSize(1200)).toBe(20);
    expect(leaseSize(1_000_000)).toBe(20);
    await startOfFreshWindow();
    const key = `test:lease-small:${Date.now()}`;
    for (let i = 0; i < 3; i++) expect((await consumeRateLimit(key, 3, 60)).allowed).toBe(true);
    expect(await bucketCount(key)).toBe(3);
    expect((await consumeRateLimit(key, 3, 60)).allowed).toBe(false);
  });
});
