// Sign-in, sessions and access over real HTTP: every dashboard API route and page refuses the anonymous,
// partner credentials never open the dashboard (nor a session the /v1 API), lockout with backoff (for
// unknown emails too, with the same answers), idle logoff and revoked sessions enforced by the server.
import { inject, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import {
  createTestUser,
  dashboardFetch,
  mintSessionCookie,
  signedInCookie,
  signInOverHttp,
  type TestUser,
} from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const secret = inject("authSecret");
let partner: CreatedPartner;
let pharmacist: TestUser;
let referenceID: string;

beforeAll(async () => {
  partner = await createTestPartner("Dashboard auth");
  pharmacist = await createTestUser("pharmacist");
  const answer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  referenceID = answer.body.metadata.referenceID;
});

/** Every dashboard API route and method, with a body where one is expected. */
function dashboardApiCalls(id: string): { method: string; path: string; body?: unknown }[] {
  return [
    { method: "GET", path: "/api/transfers" },
    { method: "GET", path: "/api/transfers?status=all&q=smith" },
    { method: "GET", path: `/api/transfers/${id}` },
    { method: "GET", path: `/api/transfers/${id}/status` },
    { method: "POST", path: `/api/transfers/${id}/claim` },
    { method: "DELETE", path: `/api/transfers/${id}/claim` },
    { method: "POST", path: `/api/transfers/${id}/approve`, body: {} },
    { method: "POST", path: `/api/transfers/${id}/reject`, body: { errorType: "OTHER", description: "x" } },
    { method: "GET", path: `/api/transfers/${id}/callbacks` },
    { method: "POST", path: `/api/transfers/${id}/callbacks/redeliver` },
    { method: "POST", path: "/api/session/activity" },
    { method: "GET", path: "/api/admin/users" },
    { method: "GET", path: "/api/anything-else" },
  ];
}

describe("the anonymous", () => {
  it("get 401 problem+json from every dashboard API route, and nothing changes", async () => {
    for (const call of dashboardApiCalls(referenceID)) {
      const answer = await dashboardFetch<{ status: number; type: string }>(baseUrl, call.path, {
        method: call.method,
        body: call.body,
      });
      expect(answer.status, `${call.method} ${call.path}`).toBe(401);
      expect(answer.headers.get("content-type"), `${call.method} ${call.path}`).toContain("application/problem+json");
      expect(answer.body.status).toBe(401);
      expect(answer.text).not.toContain("patient");
    }
    const row = await db().transfer.findUniqueOrThrow({ where: { id: referenceID } });
    expect(row.status).toBe("RECEIVED");
    expect(row.claimedById).toBeNull();
  });

  it("are sent from every dashboard page to the sign-in page, which brings them back afterwards", async () => {
    for (const path of [
      "/transfers",
      "/transfers?status=all&q=smith",
      `/transfers/${referenceID}`,
      `/transfers/${referenceID}/record`,
      "/admin",
      "/admin/users",
    ]) {
      const answer = await dashboardFetch(baseUrl, path, { headers: { accept: "text/html" } });
      expect(answer.status, path).toBe(307);
      const location = new URL(answer.headers.get("location")!, baseUrl);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("callbackUrl")).toBe(path);
    }
  });

  it("can still reach the public pages", async () => {
    for (const path of ["/", "/login", "/docs", "/v1/openapi.json", "/api/auth/csrf"]) {
      const answer = await dashboardFetch(baseUrl, path);
      expect(answer.status, path).toBe(200);
    }
  });
});

describe("credentials do not cross", () => {
  it("a partner's API key or bearer token does not open the dashboard API", async () => {
    for (const authorization of [senderKey(partner.apiKey), `Bearer ${partner.apiKey}`, partner.apiKey]) {
      const answer = await dashboardFetch(baseUrl, "/api/transfers", { headers: { authorization } });
      expect(answer.status).toBe(401);
    }
  });

  it("a dashboard session does not open the /v1 API", async () => {
    const cookie = await signedInCookie(baseUrl, pharmacist);
    const answer = await send(baseUrl, { body: freshRequest(), headers: { cookie } });
    expect(answer.status).toBe(401);
    const lookup = await send(baseUrl, { method: "GET", path: `/v1/transfer/${referenceID}`, headers: { cookie } });
    expect(lookup.status).toBe(401);
  });
});

describe("signing in", () => {
  it("with the right password gives an httpOnly, SameSite=Lax session cookie that opens the queue", async () => {
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
    expect(csrf.ok).toBe(true);
    const answer = await signInOverHttp(baseUrl, pharmacist.email, pharmacist.password);
    expect(answer.status).toBe(302);
    expect(new URL(answer.location, baseUrl).pathname).toBe("/transfers");
    expect(answer.sessionCookie).toBeTruthy();
    const queue = await dashboardFetch<{ items: unknown[]; counts: { RECEIVED: { count: number } } }>(
      baseUrl,
      "/api/transfers",
      { cookie: answer.sessionCookie },
    );
    expect(queue.status).toBe(200);
    expect(queue.body.counts.RECEIVED.count).toBeGreaterThan(0);
    const user = await db().user.findUniqueOrThrow({ where: { id: pharmacist.id } });
    expect(user.lastLoginAt).not.toBeNull();
    expect(await db().auditEvent.count({ where: { userId: pharmacist.id, action: "auth.signed_in" } })).toBeGreaterThan(
      0,
    );
  });

  it("sets the cookie httpOnly and SameSite=Lax (Secure under HTTPS)", async () => {
    const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const cookie = csrfRes.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ email: pharmacist.email, password: pharmacist.password, csrfToken }),
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
  });

  it("with a wrong password is refused without saying which part was wrong", async () => {
    const answer = await signInOverHttp(baseUrl, pharmacist.email, "not-the-password");
    expect(answer.sessionCookie).toBeNull();
    const location = new URL(answer.location);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("code")).toBe("invalid");
    const unknown = await signInOverHttp(baseUrl, "nobody-here@test.example", "whatever-password");
    expect(new URL(unknown.location).searchParams.get("code")).toBe("invalid");
  });

  it("a disabled account cannot sign in, and its open sessions end", async () => {
    const user = await createTestUser("pharmacist");
    const cookie = await signedInCookie(baseUrl, user);
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie })).status).toBe(200);
    await db().user.update({
      where: { id: user.id },
      data: { disabledAt: new Date(), sessionVersion: { increment: 1 } },
    });
    const refused = await dashboardFetch<{ type: string }>(baseUrl, "/api/transfers", { cookie });
    expect(refused.status).toBe(401);
    expect(refused.body.type).toContain("revoked");
    const again = await signInOverHttp(baseUrl, user.email, user.password);
    expect(again.sessionCookie).toBeNull();
  });
});

describe("lockout", () => {
  async function failTimes(email: string, n: number): Promise<string[]> {
    const codes: string[] = [];
    for (let i = 0; i < n; i++) {
      const answer = await signInOverHttp(baseUrl, email, `wrong-${i}`);
      codes.push(new URL(answer.location).searchParams.get("code") ?? "");
    }
    return codes;
  }

  it("locks an account for a minute after 5 failures, refuses even the right password meanwhile, and doubles on the next failure", async () => {
    const user = await createTestUser("pharmacist");
    const before = Date.now();
    const codes = await failTimes(user.email, 5);
    expect(codes.slice(0, 4)).toEqual(["invalid", "invalid", "invalid", "invalid"]);
    expect(codes[4]).toMatch(/^locked-\d+$/);
    const retryAt = Number(codes[4]!.slice(7)) * 1000;
    expect(retryAt - before).toBeGreaterThan(55_000);
    expect(retryAt - before).toBeLessThan(70_000);

    const right = await signInOverHttp(baseUrl, user.email, user.password);
    expect(right.sessionCookie).toBeNull();
    expect(new URL(right.location).searchParams.get("code")).toBe(codes[4]);

    // Once the lock has passed, one more failure locks for twice as long.
    await db().user.update({ where: { id: user.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    const sixth = await failTimes(user.email, 1);
    const second = Number(sixth[0]!.slice(7)) * 1000 - Date.now();
    expect(second).toBeGreaterThan(115_000);
    expect(second).toBeLessThan(130_000);

    // After that lock, the right password works and the counter starts again.
    await db().user.update({ where: { id: user.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    expect((await signInOverHttp(baseUrl, user.email, user.password)).sessionCookie).toBeTruthy();
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).failedLogins).toBe(0);
    expect(await db().auditEvent.count({ where: { userId: user.id, action: "auth.locked_out" } })).toBe(2);
  });

  it("answers an unknown email exactly as it answers a real account, lockout included", async () => {
    const email = `ghost-${Date.now()}@test.example`;
    const codes = await failTimes(email, 6);
    expect(codes.slice(0, 4)).toEqual(["invalid", "invalid", "invalid", "invalid"]);
    expect(codes[4]).toMatch(/^locked-\d+$/);
    expect(codes[5]).toBe(codes[4]);
  });

  it("the sign-in page says when to try again", async () => {
    const page = await dashboardFetch(
      baseUrl,
      `/login?error=CredentialsSignin&code=locked-${Math.ceil(Date.now() / 1000) + 60}`,
    );
    expect(page.text).toContain("Too many failed sign-ins");
  });
});

describe("sessions", () => {
  it("end after the idle limit without activity: 401 for the API, the sign-in page (saying why) for pages", async () => {
    const idle = await mintSessionCookie(secret, pharmacist, { lastActivityAgoMs: 16 * 60_000 });
    const api = await dashboardFetch<{ type: string }>(baseUrl, "/api/transfers", { cookie: idle });
    expect(api.status).toBe(401);
    expect(api.body.type).toContain("idle");
    expect(api.headers.getSetCookie().join(";")).toMatch(/authjs\.session-token=;.*Max-Age=0/i);
    const page = await dashboardFetch(baseUrl, "/transfers", { cookie: idle });
    expect(page.status).toBe(307);
    const location = new URL(page.headers.get("location")!, baseUrl);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("reason")).toBe("idle");
    const login = await dashboardFetch(baseUrl, "/login?reason=idle");
    expect(login.text).toContain("without activity");
  });

  it("end after the maximum length however active", async () => {
    const old = await mintSessionCookie(secret, pharmacist, { lastActivityAgoMs: 1000, signedInAgoMs: 13 * 3_600_000 });
    const api = await dashboardFetch<{ type: string }>(baseUrl, "/api/transfers", { cookie: old });
    expect(api.status).toBe(401);
    expect(api.body.type).toContain("expired");
  });

  it("a person's request moves the last activity forward; the page's own refreshes do not", async () => {
    const cookie = await mintSessionCookie(secret, pharmacist, { lastActivityAgoMs: 60_000 });
    const background = await dashboardFetch(baseUrl, "/api/transfers", { cookie, headers: { "x-rx-background": "1" } });
    expect(background.status).toBe(200);
    expect(background.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(false);
    const active = await dashboardFetch(baseUrl, "/api/session/activity", { cookie, method: "POST" });
    expect(active.status).toBe(200);
    const refreshed = active.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
    expect(refreshed).toMatch(/HttpOnly/i);
    // The refreshed cookie carries the new activity time: still valid after the old one would have idled out.
    const renewed = refreshed!.split(";")[0]!;
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie: renewed })).status).toBe(200);
  });

  it("end when the account's session version moves on (role change, password reset)", async () => {
    const user = await createTestUser("pharmacist");
    const cookie = await signedInCookie(baseUrl, user);
    await db().user.update({ where: { id: user.id }, data: { sessionVersion: { increment: 1 } } });
    const page = await dashboardFetch(baseUrl, "/transfers", { cookie });
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!, baseUrl).searchParams.get("reason")).toBe("revoked");
  });

  it("sign-out ends the session", async () => {
    const cookie = await signedInCookie(baseUrl, pharmacist);
    const out = await dashboardFetch(baseUrl, "/api/session/logout", {
      cookie,
      method: "POST",
      body: { reason: "user" },
    });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join(";")).toMatch(/authjs\.session-token=;/);
    expect(
      await db().auditEvent.count({ where: { userId: pharmacist.id, action: "auth.signed_out" } }),
    ).toBeGreaterThan(0);
  });
});

describe("roles", () => {
  it("a pharmacist cannot open admin pages or the admin API", async () => {
    const cookie = await signedInCookie(baseUrl, pharmacist);
    const page = await dashboardFetch(baseUrl, "/admin", { cookie });
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!, baseUrl).pathname).toBe("/transfers");
    expect((await dashboardFetch(baseUrl, "/api/admin/users", { cookie })).status).toBe(403);
  });

  it("an admin may read the queue but not claim or decide", async () => {
    const admin = await createTestUser("admin");
    const cookie = await signedInCookie(baseUrl, admin);
    expect((await dashboardFetch(baseUrl, "/api/transfers", { cookie })).status).toBe(200);
    expect(
      (await dashboardFetch(baseUrl, `/api/transfers/${referenceID}/claim`, { cookie, method: "POST" })).status,
    ).toBe(403);
    expect(
      (await dashboardFetch(baseUrl, `/api/transfers/${referenceID}/approve`, { cookie, method: "POST", body: {} }))
        .status,
    ).toBe(403);
  });
});
