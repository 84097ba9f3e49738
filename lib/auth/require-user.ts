// The authoritative check behind every dashboard page and API route. proxy.ts has already refused the
// obvious cases from the cookie alone; here the session is also checked against the database: the user
// still exists, is not disabled, and the session was issued for the current session version (bumped on
// disable, role change and password reset), and its own session row (user_sessions, the cookie's `sid`)
// still exists: signing out deletes it. One query reads both. The role comes from the database, not from
// the cookie. GET requests from another site's page are refused here too (they write audit rows).
// A session whose second factor (or required enrolment) is still due opens nothing but those steps.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import * as z from "zod";
import { auth } from "@/auth";
import { accessRuleFor, isAllowed, ROLES, type Role } from "@/lib/auth/access-policy";
import { SessionClaimsSchema, sessionEnded } from "@/lib/auth/session-claims";
import { SECOND_FACTOR_STATES, type SecondFactorDue } from "@/lib/auth/two-factor/policy";
import { selectSessionUser } from "@/lib/auth/sql";

export type SessionUser = { id: string; email: string; name: string; role: Role };

export type AuthFailure = "signed_out" | "idle" | "expired" | "revoked";

const SessionWithClaims = z.object({ claims: SessionClaimsSchema });

/** Once per request (React's cache): the layout and the page ask the same question. */
export type LoadedSession =
  | { ok: true; user: SessionUser; sessionId: string; secondFactor: SecondFactorDue }
  | { ok: false; reason: AuthFailure };

export const loadSessionUser = cache(async (): Promise<LoadedSession> => {
  const parsed = SessionWithClaims.safeParse(await auth());
  if (!parsed.success) return { ok: false, reason: "signed_out" };
  const claims = parsed.data.claims;
  const ended = sessionEnded(claims);
  if (ended) return { ok: false, reason: ended };
  // One round trip for both checks (a Prisma relation select would be a second query).
  const user = await selectSessionUser(claims.sub, claims.sid).executeTakeFirst();
  const role = ROLES.find((r) => r === user?.role);
  if (!user || !role || user.disabled || user.session_version !== claims.sv || !user.session_live)
    return { ok: false, reason: "revoked" };
  const secondFactor = SECOND_FACTOR_STATES.find((state) => state === user.second_factor) ?? null;
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, role },
    sessionId: claims.sid,
    secondFactor,
  };
});

/** Where a session that still owes its second factor goes, whatever it asked for. */
export function secondFactorPage(due: "verify" | "enrol", callbackPath: string): string {
  return `${due === "verify" ? TWO_FACTOR_PAGE : SECURITY_PAGE}?${new URLSearchParams({ callbackUrl: callbackPath })}`;
}
export const TWO_FACTOR_PAGE = "/login/two-factor";
export const SECURITY_PAGE = "/security";

/**
 * For the two-factor step and the Security page (and their actions): the session, whether or not its
 * second factor is done. Everything else uses requirePageUser / requireApiUser, which refuse it.
 */
export async function requireSessionAllowingSecondFactor(): Promise<{
  user: SessionUser;
  sessionId: string;
  secondFactor: SecondFactorDue;
} | null> {
  const result = await loadSessionUser();
  return result.ok ? { user: result.user, sessionId: result.sessionId, secondFactor: result.secondFactor } : null;
}

/** The live session (its user and user_sessions id), or null: for signing out. */
export async function currentSession(): Promise<{ user: SessionUser; sessionId: string } | null> {
  const result = await loadSessionUser();
  return result.ok ? { user: result.user, sessionId: result.sessionId } : null;
}

/** The user of a complete session (second factor done), or null (for pages that are public but greet a signed-in user). */
export async function currentUser(): Promise<SessionUser | null> {
  const result = await loadSessionUser();
  return result.ok && !result.secondFactor ? result.user : null;
}

export function loginUrl(callbackPath: string, reason?: AuthFailure | "forbidden"): string {
  const params = new URLSearchParams({ callbackUrl: callbackPath });
  if (reason && reason !== "signed_out") params.set("reason", reason);
  return `/login?${params}`;
}

/**
 * For pages: the signed-in user allowed to open `path` (the page's own path, with its query if it
 * matters for coming back), or a redirect to the sign-in page that comes back to `path` afterwards.
 */
export async function requirePageUser(path: string): Promise<SessionUser> {
  const result = await loadSessionUser();
  if (!result.ok) redirect(loginUrl(path, result.reason));
  // Password right, second factor (or a required enrolment) not done: nothing else opens.
  if (result.secondFactor) redirect(secondFactorPage(result.secondFactor, path));
  const pathname = path.split("?")[0] ?? path;
  if (!isAllowed(accessRuleFor(pathname, "GET"), result.user.role)) {
    redirect(`/transfers?denied=${encodeURIComponent(pathname)}`);
  }
  // Opening a page records a view (of a transfer, a record): another site's link must not do that on
  // its own. The person confirms on a page of ours, whose link is then a same-origin navigation.
  if (isCrossSiteRequest(await headers())) redirect(`${CROSS_SITE_PAGE}?${new URLSearchParams({ to: path })}`);
  return result.user;
}

/** Where a page opened from another site's link (or form, or frame) asks the person to continue. */
export const CROSS_SITE_PAGE = "/continue";

/**
 * A request another site's page caused, by the browser's Sec-Fetch-Site: anything but `same-origin` and
 * `none` (typed address, bookmark). `same-site` is refused too: a sibling subdomain is another
 * application. No header at all is a non-browser client (curl, scripts), which no other site can drive.
 */
export function isCrossSiteRequest(requestHeaders: { get(name: string): string | null }): boolean {
  const site = requestHeaders.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

/** An API request refused: 401 (not signed in) or 403 (signed in, not allowed). */
export class AuthRefusal extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AuthRefusal";
  }
}

const REFUSAL_TEXT: Record<AuthFailure, string> = {
  signed_out: "Sign in to use the dashboard API.",
  idle: "Your session ended after a period without activity. Sign in again.",
  expired: "Your session reached its maximum length. Sign in again.",
  revoked: "Your session is no longer valid (signed out, ended by an admin, or the account changed). Sign in again.",
};

/**
 * For API routes: the signed-in user allowed to call this method on this path (the access policy), or
 * an AuthRefusal. Only the session cookie counts: partner credentials in an Authorization header are
 * not a dashboard identity. Requests that change something must come from this site (Origin check, on
 * top of the SameSite=Lax cookie).
 */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const url = new URL(request.url);
  const result = await loadSessionUser();
  if (!result.ok) throw new AuthRefusal(401, result.reason, REFUSAL_TEXT[result.reason]);
  if (result.secondFactor) {
    throw new AuthRefusal(
      403,
      "second_factor_required",
      result.secondFactor === "verify"
        ? "Finish signing in: enter your two-factor code first."
        : "Set up two-factor sign-in first (Security page).",
    );
  }
  if (!isAllowed(accessRuleFor(url.pathname, request.method), result.user.role)) {
    throw new AuthRefusal(
      403,
      "forbidden",
      `Your role (${result.user.role}) may not ${request.method} ${url.pathname}.`,
    );
  }
  if (!["GET", "HEAD", "OPTIONS"].includes(request.method) && !isSameOrigin(request)) {
    throw new AuthRefusal(403, "cross_origin", "Changes are accepted only from this site's own pages.");
  }
  // Reads write audit rows too (views, searches, exports): another site's page may not cause them.
  if (isCrossSiteRequest(request.headers)) {
    throw new AuthRefusal(
      403,
      "cross_site_request",
      "This request came from another site's page; use the dashboard itself.",
    );
  }
  return result.user;
}

function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true; // non-browser clients; browsers always send Origin on POST/DELETE
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
