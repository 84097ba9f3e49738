// Next 16's proxy (formerly middleware), in front of every page and route except static files and the
// partner API. It applies lib/auth/access-policy.ts from the session cookie alone (fast, no database):
//   - public rows pass;
//   - no session, or one that idled out or expired: a page redirects to the sign-in page (which comes
//     back afterwards), an API route answers 401 problem+json; the dead cookie is cleared;
//   - a role the row does not allow: a page goes back to the queue with a notice, an API route gets 403.
// It also records activity: a request a person caused (not a page's own refresh timer, not a prefetch)
// rewrites the session cookie with the new time, which is what keeps a working session from idling out.
// Pages and API routes check again against the database (lib/auth/require-user.ts).
import { decode, encode, type JWT } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { accessRuleFor, isAllowed, isApiPath, isPublic } from "@/lib/auth/access-policy";
import {
  activityResolutionMs,
  BACKGROUND_HEADER,
  SESSION_COOKIE_NAMES,
  SessionClaimsSchema,
  sessionCookieMaxAgeSeconds,
  sessionEnded,
  type SessionClaims,
} from "@/lib/auth/session-claims";
import { env } from "@/lib/env";
import { toWebResponse } from "@/lib/http/api-exchange";
import { audienceOf, isMalformedPath, malformedPathAnswer } from "@/lib/http/malformed-path";
import { problemResponse } from "@/lib/http/problem-response";
import { publicOrigin } from "@/lib/http/public-origin";
import { HSTS, isCrossSiteWrite, isHttps, pageContentSecurityPolicy } from "@/lib/http/security-headers";

type SessionRead =
  | { ok: true; cookieName: string; token: JWT; claims: SessionClaims }
  | { ok: false; reason: "signed_out" | "idle" | "expired"; cookieName: string | null };

async function readSession(request: NextRequest): Promise<SessionRead> {
  const cookieName = SESSION_COOKIE_NAMES.find((name) => request.cookies.has(name)) ?? null;
  const secret = env().AUTH_SECRET;
  if (!cookieName || !secret) return { ok: false, reason: "signed_out", cookieName };
  try {
    const token = await decode({ token: request.cookies.get(cookieName)?.value, secret, salt: cookieName });
    const claims = SessionClaimsSchema.safeParse(token);
    if (!token || !claims.success) return { ok: false, reason: "signed_out", cookieName };
    const ended = sessionEnded(claims.data);
    if (ended) return { ok: false, reason: ended, cookieName };
    return { ok: true, cookieName, token, claims: claims.data };
  } catch {
    // Not decryptable (another secret) or past its expiry.
    return { ok: false, reason: "signed_out", cookieName };
  }
}

function countsAsActivity(request: NextRequest): boolean {
  if (request.headers.has(BACKGROUND_HEADER)) return false;
  if (request.headers.has("next-router-prefetch")) return false;
  const purpose = `${request.headers.get("purpose") ?? ""} ${request.headers.get("sec-purpose") ?? ""}`;
  return !purpose.includes("prefetch");
}

function cookieOptions(cookieName: string) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: cookieName.startsWith("__Secure-") };
}

/**
 * A redirect on the service's public origin (lib/http/public-origin.ts), never Next's own request URL,
 * which says "localhost" for a loopback address (a browser keeps localhost's cookies apart from 127.0.0.1's).
 */
function redirectTo(request: NextRequest, path: string): Response {
  const location = new URL(path, publicOrigin(request));
  return NextResponse.redirect(location, { status: 307, headers: { "cache-control": "no-store" } });
}

function refuse(request: NextRequest, reason: "signed_out" | "idle" | "expired", cookieName: string | null): Response {
  const { pathname, search } = request.nextUrl;
  let response: Response;
  if (isApiPath(pathname)) {
    const detail =
      reason === "idle"
        ? "Your session ended after a period without activity. Sign in again."
        : reason === "expired"
          ? "Your session reached its maximum length. Sign in again."
          : "Sign in to use the dashboard API.";
    response = problemResponse(
      401,
      reason,
      "Sign-in required",
      detail,
      {},
      { "www-authenticate": 'Session realm="dashboard"' },
    );
  } else {
    const params = new URLSearchParams({ callbackUrl: `${pathname}${search}` });
    if (reason !== "signed_out") params.set("reason", reason);
    response = redirectTo(request, `/login?${params}`);
  }
  if (cookieName) {
    // Expire the dead cookie (Response has no cookie helper; a header does the same).
    const secure = cookieName.startsWith("__Secure-") ? "; Secure" : "";
    response.headers.append("set-cookie", `${cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
  }
  return response;
}

/** Security headers on everything the proxy answers: the page CSP with this request's nonce, HSTS under HTTPS. */
function secure<T extends Response>(request: NextRequest, response: T, csp: string): T {
  if (!isApiPath(request.nextUrl.pathname)) response.headers.set("content-security-policy", csp);
  if (isHttps(request)) response.headers.set("strict-transport-security", HSTS);
  return response;
}

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // CSRF: a state-changing request another site's page made is refused before anything else.
  if (isCrossSiteWrite(request)) {
    return problemResponse(
      403,
      "cross_site_request",
      "Cross-site request refused",
      "This request came from another site's page; use the dashboard itself.",
    );
  }
  // A fresh nonce per request: Next puts it on its own scripts when it sees it in the request's CSP.
  const nonce = btoa(crypto.randomUUID());
  const issuer = env().OIDC_ISSUER;
  const csp = pageContentSecurityPolicy(
    nonce,
    env().NODE_ENV === "development",
    issuer ? [new URL(issuer).origin] : [],
  );
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const next = () => NextResponse.next({ request: { headers: requestHeaders } });

  // `npm start` answers these before Next (lib/http/production-server.ts); this covers `next dev`.
  if (isMalformedPath(pathname)) {
    return secure(
      request,
      toWebResponse(malformedPathAnswer(audienceOf(pathname) === "page" ? "page" : "json-api")),
      csp,
    );
  }
  return secure(request, await decide(request, pathname, next), csp);
}

async function decide(request: NextRequest, pathname: string, next: () => NextResponse): Promise<Response> {
  const rule = accessRuleFor(pathname, request.method);
  if (isPublic(rule)) return next();

  const session = await readSession(request);
  if (!session.ok) return refuse(request, session.reason, session.cookieName);

  if (!isAllowed(rule, session.claims.role)) {
    if (isApiPath(pathname)) {
      return problemResponse(
        403,
        "forbidden",
        "Forbidden",
        `Your role (${session.claims.role}) may not ${request.method} ${pathname}.`,
      );
    }
    return redirectTo(request, `/transfers?${new URLSearchParams({ denied: pathname })}`);
  }

  const response = next();
  const now = Date.now();
  if (countsAsActivity(request) && now - session.claims.act >= activityResolutionMs()) {
    const maxAge = sessionCookieMaxAgeSeconds();
    const token = await encode({
      token: { ...session.token, act: now },
      secret: env().AUTH_SECRET ?? "",
      salt: session.cookieName,
      maxAge,
    });
    response.cookies.set(session.cookieName, token, { ...cookieOptions(session.cookieName), maxAge });
  }
  return response;
}

export const config = {
  // Keep in step with PROXY_SKIPPED_PREFIXES in lib/auth/access-policy.ts (a unit test checks it).
  matcher: ["/((?!_next/static/|_next/image|favicon.ico|v1/|oauth/token).*)"],
};
