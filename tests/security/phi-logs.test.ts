// Logs must not carry patient data. Paths are logged without their query strings (where
// searches put names and dates of birth), and database errors by their code with the values redacted.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { errorFields } from "@/lib/log";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createTestUser, signedInCookie } from "@/tests/support/dashboard-session";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl, env: { LOG_LEVEL: "debug" } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("server logs", () => {
  it("hold no query string after requests that carry patient data in it", async () => {
    const name = `Zzphi${randomUUID().slice(0, 6)}`;
    const dob = "1931-07-19";
    const cookie = await signedInCookie(server.baseUrl, await createTestUser("pharmacist"));
    const paths = [
      `/api/transfers?q=${name}`,
      `/api/transfers?q=${dob}`,
      `/api/transfers/trf_x?dob=${dob}&q=${name}`,
      `/api/transfers/export?from=${dob}&q=${name}`,
      `/transfers?q=${name}`,
      `/v1/transfer/trf_x?patient=${name}`,
      `/v1/nowhere?patient=${name}`,
      `/oauth/token?patient=${name}`,
      `/api/%ZZ?patient=${name}`,
      `/login?callbackUrl=/transfers%3Fq%3D${name}`,
    ];
    for (const path of paths) await fetch(`${server.baseUrl}${path}`, { headers: { cookie }, redirect: "manual" });
    await fetch(`${server.baseUrl}/v1/transfer?patient=${name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await new Promise((r) => setTimeout(r, 300));
    const output = server.output();
    expect(output).toContain("dashboard api"); // the requests were logged ...
    expect(output).not.toContain(name); // ... without the patient's name
    expect(output).not.toContain(dob);
  });
});

describe("database errors", () => {
  it("are logged by code, without the values PostgreSQL quotes", async () => {
    const email = `phi-${randomUUID().slice(0, 8)}@patient.example`;
    await db().$executeRaw`INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${email}, now(), 1)`;
    const failure = await db()
      .$executeRaw`INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${email}, now(), 1)`.then(
      () => null,
      (err: unknown) => err,
    );
    await db().$executeRaw`DELETE FROM rate_limit_buckets WHERE key = ${email}`;
    expect(failure).toBeInstanceOf(Error);
    const fields = errorFields(failure);
    expect(JSON.stringify(fields)).not.toContain(email.split("@")[0]);
    expect(fields.errorCode).toMatch(/^(23505|P2010|P2002)$/);

    const badDate = await db().$queryRaw`SELECT ${"1931-02-30"}::date`.then(
      () => null,
      (err: unknown) => err,
    );
    expect(JSON.stringify(errorFields(badDate))).not.toContain("1931");
  });
});
