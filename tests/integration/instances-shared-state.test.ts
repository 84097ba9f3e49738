// Two `npm start` instances on one database share what must be shared: a /v1 rate limit counts the
// requests of both (they live in PostgreSQL), a dashboard session signed in on one works on the other, and
// a claim taken on one instance is respected on the other (409 naming the holder; deciding is refused).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const LIMIT = 30;
let a: TestServer;
let b: TestServer;
let partner: CreatedPartner;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  const env = { V1_RATE_LIMIT_PER_MINUTE: String(LIMIT), RUN_WORKER: "false" };
  [a, b] = await Promise.all([startTestServer({ databaseUrl, env }), startTestServer({ databaseUrl, env })]);
  partner = await createTestPartner("Two Instances");
  [alice, bob] = await Promise.all([
    createTestUser("pharmacist", "Alice Two"),
    createTestUser("pharmacist", "Bob Two"),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe("two instances on one database", () => {
  it("share one /v1 rate limit per credential", async () => {
    // The limit is per calendar minute: start well inside one.
    while (new Date().getUTCSeconds() > 45) await new Promise((r) => setTimeout(r, 500));
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 10; i++) {
      const answer = await send(i % 2 === 0 ? a.baseUrl : b.baseUrl, {
        body: freshRequest(),
        authorization: senderKey(partner.apiKey),
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  }, 60_000);

  it("respect a claim taken on the other instance, with a session from either", async () => {
    const other = await createTestPartner("Two Instances Claims");
    const received = await send(a.baseUrl, { body: freshRequest(), authorization: senderKey(other.apiKey) });
    expect(received.status).toBe(200);
    const id = received.body.metadata.referenceID;
    const [cookieA, cookieB] = await Promise.all([signedInCookie(a.baseUrl, alice), signedInCookie(b.baseUrl, bob)]);
    expect(
      (await dashboardFetch(a.baseUrl, `/api/transfers/${id}/claim`, { cookie: cookieA, method: "POST" })).status,
    ).toBe(200);
    const theirs = await dashboardFetch<{ heldBy: string; reason: string }>(b.baseUrl, `/api/transfers/${id}/claim`, {
      cookie: cookieB,
      method: "POST",
    });
    expect(theirs.status).toBe(409);
    expect(theirs.body).toMatchObject({ reason: "claimed_by_other", heldBy: alice.name });
    const refused = await dashboardFetch(b.baseUrl, `/api/transfers/${id}/reject`, {
      cookie: cookieB,
      method: "POST",
      body: { errorType: "OTHER", description: "not ours" },
    });
    expect(refused.status).toBe(409);
    // Alice's session, signed in on A, decides on B.
    const approved = await dashboardFetch<{ decision: string }>(b.baseUrl, `/api/transfers/${id}/approve`, {
      cookie: cookieA,
      method: "POST",
      body: { oneTimeTransferConfirmed: true },
    });
    expect(approved.status, approved.text).toBe(200);
  }, 60_000);
});
