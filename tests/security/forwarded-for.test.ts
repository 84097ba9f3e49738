// The client's address came from the leftmost X-Forwarded-For, which the client writes. A forged
// header must land neither in the audit log nor in the per-address sign-in limit; behind a trusted proxy
// (TRUSTED_PROXIES) the rightmost untrusted entry is the client.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createTestUser, signInOverHttp, type TestUser } from "@/tests/support/dashboard-session";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();

/** A random documentation address (TEST-NET-3), so runs never see each other's rows. */
const forged = () => `203.0.113.${1 + Math.floor(Math.random() * 250)}`;

async function failedSignInAddresses(user: TestUser): Promise<(string | null)[]> {
  const rows = await db().auditEvent.findMany({
    where: { userId: user.id, action: "auth.sign_in_failed" },
    select: { clientAddress: true },
  });
  return rows.map((r) => r.clientAddress);
}

const bucketCount = async (address: string) =>
  (
    await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM rate_limit_buckets WHERE key LIKE ${`%${address}%`}`
  )[0]?.n ?? 0n;

describe("forged X-Forwarded-For on a server without trusted proxies", () => {
  it("is not recorded in the audit log nor counted against that address", async () => {
    const user = await createTestUser("pharmacist");
    const address = forged();
    const answer = await signInOverHttp(baseUrl, user.email, `wrong-${randomUUID()}`, {
      "x-forwarded-for": address,
      "x-real-ip": address,
    });
    expect(answer.sessionCookie).toBeNull();
    const addresses = await failedSignInAddresses(user);
    expect(addresses).toHaveLength(1);
    expect(addresses[0]).toBe("127.0.0.1");
    expect(await bucketCount(address)).toBe(0n);
  });

  it("cannot be set through the server's own internal header either", async () => {
    const user = await createTestUser("pharmacist");
    const address = forged();
    await signInOverHttp(baseUrl, user.email, `wrong-${randomUUID()}`, { "x-rx-client-address": address });
    expect(await failedSignInAddresses(user)).toEqual(["127.0.0.1"]);
  });

  it("varying the header does not escape the per-address limit (every failure counts against the socket's address)", async () => {
    const before = await db().$queryRaw<
      { count: number }[]
    >`SELECT count FROM rate_limit_buckets WHERE key = 'signin-addr:127.0.0.1'`;
    const user = await createTestUser("pharmacist");
    for (let i = 0; i < 3; i++)
      await signInOverHttp(baseUrl, user.email, `wrong-${randomUUID()}`, { "x-forwarded-for": forged() });
    const after = await db().$queryRaw<
      { count: number }[]
    >`SELECT count FROM rate_limit_buckets WHERE key = 'signin-addr:127.0.0.1'`;
    // Other files sign in from 127.0.0.1 at the same time: at least our three were counted there.
    expect((after[0]?.count ?? 0) - (before[0]?.count ?? 0)).toBeGreaterThanOrEqual(3);
  });
});

describe("behind a trusted proxy (TRUSTED_PROXIES)", () => {
  let oneHop: TestServer;
  let byAddress: TestServer;
  beforeAll(async () => {
    [oneHop, byAddress] = await Promise.all([
      startTestServer({ databaseUrl, env: { TRUSTED_PROXIES: "1" } }),
      startTestServer({ databaseUrl, env: { TRUSTED_PROXIES: "127.0.0.0/8, 10.0.0.0/8, ::1" } }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([oneHop?.stop(), byAddress?.stop()]);
  });

  it("with one hop, the rightmost X-Forwarded-For entry is the client, whatever the client prepended", async () => {
    const user = await createTestUser("pharmacist");
    const prepended = forged();
    await signInOverHttp(oneHop.baseUrl, user.email, `wrong-${randomUUID()}`, {
      "x-forwarded-for": `${prepended}, 198.51.100.7`,
    });
    expect(await failedSignInAddresses(user)).toEqual(["198.51.100.7"]);
    expect(await bucketCount(prepended)).toBe(0n);
  });

  it("with a list, trusted entries are skipped from the right and IPv4-mapped IPv6 is normalized", async () => {
    const user = await createTestUser("pharmacist");
    await signInOverHttp(byAddress.baseUrl, user.email, `wrong-${randomUUID()}`, {
      "x-forwarded-for": `${forged()}, ::ffff:198.51.100.8, 10.1.2.3`,
    });
    expect(await failedSignInAddresses(user)).toEqual(["198.51.100.8"]);
  });

  it("believes X-Forwarded-Proto only from the trusted proxy: HSTS behind it, none on the default server", async () => {
    const viaProxy = await fetch(`${oneHop.baseUrl}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(viaProxy.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const direct = await fetch(`${baseUrl}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(direct.headers.get("strict-transport-security")).toBeNull();
  });
});
