// Rate limits on /v1 hold across several instances of the service: their counters live in PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const LIMIT = 5;
let servers: TestServer[] = [];
let partner: CreatedPartner;

beforeAll(async () => {
  servers = await Promise.all([0, 1].map(() => startTestServer({ databaseUrl, env: { V1_RATE_LIMIT_PER_MINUTE: String(LIMIT) } })));
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
    const key = await createApiKey(partner.partnerId);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const answer = await send(servers[i % 2]!.baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));

    const request = freshRequest();
    const refused = await send(servers[1]!.baseUrl, { body: request, authorization: senderKey(key.apiKey) });
    expectEnvelope(refused);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.type).toBe("OTHER");
    expect(refused.body.requestID).toBe(request.metadata.requestID);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another credential of the same partner has its own budget.
    const other = await createApiKey(partner.partnerId);
    expect((await send(servers[0]!.baseUrl, { body: freshRequest(), authorization: senderKey(other.apiKey) })).status).toBe(200);
  });
});
