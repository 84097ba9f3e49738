// Dashboard users and sessions for integration tests: real users in the test database, real sign-in
// through next-auth's credentials endpoint (CSRF token included), and minted session cookies where a
// test needs a session in a given state (idle, old version).
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import type { Role } from "@/lib/auth/access-policy";
import { createUserSession } from "@/lib/auth/user-sessions";
import { db } from "@/lib/db/prisma";
import { createUser } from "@/lib/users/create-user";

export type TestUser = { id: string; email: string; password: string; name: string; role: Role };

export async function createTestUser(role: Role, name?: string): Promise<TestUser> {
  const email = `${role}-${randomUUID().slice(0, 8)}@test.example`;
  const password = `pw-${randomUUID()}`;
  const displayName = name ?? `${role === "admin" ? "Admin" : "Pharmacist"} ${randomUUID().slice(0, 4)}`;
  const { userId } = await createUser({ email, password, role, name: displayName });
  return { id: userId, email, password, name: displayName, role };
}

function cookiesOf(res: Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    jar[pair!.slice(0, eq).trim()] = pair!.slice(eq + 1);
  }
  return jar;
}

export type SignInAnswer = { status: number; location: string; sessionCookie: string | null };

/** Signs in the way a browser without JavaScript would: CSRF token, then the credentials callback. */
export async function signInOverHttp(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  callbackUrl = "/transfers",
): Promise<SignInAnswer> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookies = cookiesOf(csrfRes);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headers,
      "content-type": "application/x-www-form-urlencoded",
      cookie: Object.entries(csrfCookies)
        .map(([k, v]) => `${k}=${v}`)
        .join("; "),
    },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl }),
  });
  const session = cookiesOf(res)["authjs.session-token"];
  return {
    status: res.status,
    location: res.headers.get("location") ?? "",
    sessionCookie: session ? `authjs.session-token=${session}` : null,
  };
}

export async function signedInCookie(baseUrl: string, user: TestUser): Promise<string> {
  const answer = await signInOverHttp(baseUrl, user.email, user.password);
  if (!answer.sessionCookie) throw new Error(`sign-in failed: ${answer.status} ${answer.location}`);
  return answer.sessionCookie;
}

/**
 * A session cookie as next-auth would issue it, with chosen times (for idle / expiry / version tests), and
 * its user_sessions row (as a sign-in makes one) unless `sessionId` names one to use instead.
 */
export async function mintSessionCookie(
  secret: string,
  user: TestUser,
  opts: { lastActivityAgoMs?: number; signedInAgoMs?: number; sessionVersion?: number; sessionId?: string } = {},
): Promise<string> {
  const now = Date.now();
  const current = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });
  const sessionId = opts.sessionId ?? (await db().$transaction((tx) => createUserSession(tx, user.id, null)));
  const token = await encode({
    secret,
    salt: "authjs.session-token",
    maxAge: 3600,
    token: {
      sub: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      sv: opts.sessionVersion ?? current.sessionVersion,
      sid: sessionId,
      act: now - (opts.lastActivityAgoMs ?? 0),
      sia: now - (opts.signedInAgoMs ?? opts.lastActivityAgoMs ?? 0),
    },
  });
  return `authjs.session-token=${token}`;
}

export type DashboardAnswer<T = unknown> = { status: number; headers: Headers; body: T; text: string };

export async function dashboardFetch<T = unknown>(
  baseUrl: string,
  path: string,
  opts: { cookie?: string | null; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<DashboardAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    redirect: "manual",
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}
