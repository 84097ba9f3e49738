// Finding 3: signing out ends the session on the server. A copy of the session cookie taken
// before sign-out is refused afterwards by pages and API routes alike, while the same user's other
// sessions (another computer) stay. "Sign out all my sessions" and an admin's "End this user's
// sessions" end every one of them; both are audited.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const ROOT = path.resolve(import.meta.dirname, "../..");

async function apiStatus(cookie: string): Promise<number> {
  return (await dashboardFetch(baseUrl, "/api/transfers?limit=1", { cookie, headers: { "x-rx-background": "1" } }))
    .status;
}

/** A page answers 200 to a live session; a refused one is sent to sign in. */
async function pageAnswer(cookie: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${baseUrl}/transfers/log`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

async function signOut(cookie: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/session/logout`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ reason: "user" }),
  });
  return res.status;
}

function expectRefusedPage(answer: { status: number; location: string | null }) {
  expect(answer.status).toBe(307);
  const target = new URL(answer.location!, baseUrl);
  expect(target.pathname).toBe("/login");
  expect(target.searchParams.get("reason")).toBe("revoked");
}

let pharmacist: TestUser;
let admin: TestUser;

beforeAll(async () => {
  pharmacist = await createTestUser("pharmacist", "Revocation Pharmacist");
  admin = await createTestUser("admin", "Revocation Admin");
});

describe("sign-out", () => {
  it("refuses a copy of the cookie taken before signing out, on a page and an API route; another session of the user survives", async () => {
    const copied = await signedInCookie(baseUrl, pharmacist);
    const otherComputer = await signedInCookie(baseUrl, pharmacist);
    expect(await apiStatus(copied)).toBe(200);
    expect((await pageAnswer(copied)).status).toBe(200);

    expect(await signOut(copied)).toBe(204);

    expect(await apiStatus(copied)).toBe(401);
    expectRefusedPage(await pageAnswer(copied));
    expect(await apiStatus(otherComputer)).toBe(200);
    expect((await pageAnswer(otherComputer)).status).toBe(200);
    expect(
      await db().auditEvent.count({ where: { userId: pharmacist.id, action: "auth.signed_out" } }),
    ).toBeGreaterThan(0);
  });

  it("refuses the copy after next-auth's own sign-out endpoint too", async () => {
    const copied = await signedInCookie(baseUrl, pharmacist);
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie: copied } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const res = await fetch(`${baseUrl}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `${copied}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }),
    });
    expect(res.status).toBeLessThan(400);
    expect(await apiStatus(copied)).toBe(401);
  });
});

describe("sign out all my sessions", () => {
  it("ends every session of the user, is audited, and leaves other users alone", async () => {
    const here = await signedInCookie(baseUrl, pharmacist);
    const there = await signedInCookie(baseUrl, pharmacist);
    const someoneElse = await signedInCookie(baseUrl, admin);
    const answer = await dashboardFetch<{ sessionsEnded: number }>(baseUrl, "/api/session/sign-out-all", {
      cookie: here,
      method: "POST",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.sessionsEnded).toBeGreaterThanOrEqual(2);
    expect(await apiStatus(here)).toBe(401);
    expect(await apiStatus(there)).toBe(401);
    expectRefusedPage(await pageAnswer(there));
    expect(await apiStatus(someoneElse)).toBe(200);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { userId: pharmacist.id, action: "auth.signed_out_everywhere" },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ userId: pharmacist.id });
    // Signing in again works.
    expect(await apiStatus(await signedInCookie(baseUrl, pharmacist))).toBe(200);
  });
});

describe("an admin ends a user's sessions", () => {
  it("ends every session of that user at once, audited with the admin as actor; the admin stays signed in", async () => {
    const adminCookie = await signedInCookie(baseUrl, admin);
    const one = await signedInCookie(baseUrl, pharmacist);
    const two = await signedInCookie(baseUrl, pharmacist);
    const answer = await dashboardFetch<{ sessionsEnded: number }>(
      baseUrl,
      `/api/admin/users/${pharmacist.id}/sessions`,
      { cookie: adminCookie, method: "DELETE" },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.sessionsEnded).toBeGreaterThanOrEqual(2);
    expect(await apiStatus(one)).toBe(401);
    expect(await apiStatus(two)).toBe(401);
    expect(await apiStatus(adminCookie)).toBe(200);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "user.sessions_ended", actor: admin.email },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ userId: pharmacist.id });
  });

  it("is for admins only, and an unknown user is a 404 problem", async () => {
    const pharmacistCookie = await signedInCookie(baseUrl, pharmacist);
    const refused = await dashboardFetch(baseUrl, `/api/admin/users/${admin.id}/sessions`, {
      cookie: pharmacistCookie,
      method: "DELETE",
    });
    expect(refused.status).toBe(403);
    const adminCookie = await signedInCookie(baseUrl, admin);
    const missing = await dashboardFetch(baseUrl, "/api/admin/users/usr_nobody/sessions", {
      cookie: adminCookie,
      method: "DELETE",
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("application/problem+json");
  });
});

describe("npm run cli -- user end-sessions", () => {
  it("ends every session of the user, audited as cli", async () => {
    const cookie = await signedInCookie(baseUrl, pharmacist);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", "user", "end-sessions", pharmacist.email, "--json"],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ userId: pharmacist.id });
    expect(await apiStatus(cookie)).toBe(401);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "user.sessions_ended", actor: "cli" },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ userId: pharmacist.id });
  });
});
