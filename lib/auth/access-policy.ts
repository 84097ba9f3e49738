// Who may call each route and open each page: the one table. proxy.ts applies it to every request it
// sees (an optimistic check on the session cookie); requirePageUser / requireApiUser apply it again in
// every dashboard page and API route against the database (user exists, not disabled, role, session
// version). Add a row here for every new page or route; the first matching row wins.
//
// "anonymous" rows are public. The /v1 API and /oauth/token are public *to dashboard sessions*: they
// have their own partner credentials (lib/auth/sender-auth.ts), which in turn never open the dashboard
// (dashboard routes read only the session cookie, never the Authorization header).

import { USER_ROLES, type UserRole } from "@/lib/users/roles";

export const ROLES = USER_ROLES;
export type Role = UserRole;
export type Access = "anonymous" | Role;

export type AccessRule = {
  /** `/a/b` exact; `*` one path segment; `**` (last) any number of segments, including none. */
  pattern: string;
  /** Restricts the row to these methods; absent: every method. */
  methods?: readonly string[];
  allow: readonly Access[];
  why: string;
};

const PUBLIC: readonly Access[] = ["anonymous"];
const STAFF: readonly Role[] = ["pharmacist", "admin"];

export const ACCESS_POLICY: readonly AccessRule[] = [
  // Partner-facing, with partner credentials (never a dashboard session)
  {
    pattern: "/v1/**",
    allow: PUBLIC,
    why: "transfer API: partner API key or OAuth bearer token, checked by the route",
  },
  { pattern: "/oauth/token", allow: PUBLIC, why: "OAuth client credentials grant: client id and secret" },
  {
    pattern: "/.well-known/oauth-authorization-server",
    allow: PUBLIC,
    why: "RFC 8414 metadata for /oauth/token (discovery by senders' OAuth libraries)",
  },
  {
    pattern: "/api/integration/**",
    allow: PUBLIC,
    why: "dispensing-system feed: integration key (Bearer), checked by the route; never a session",
  },
  { pattern: "/docs", allow: PUBLIC, why: "API documentation for sending pharmacies" },
  { pattern: "/robots.txt", allow: PUBLIC, why: "tells crawlers to keep out (Disallow: /)" },
  // Operations: probes for load balancers and orchestrators (no data, no versions)
  { pattern: "/healthz", allow: PUBLIC, why: "liveness probe: answers while the process serves" },
  { pattern: "/readyz", allow: PUBLIC, why: "readiness probe: database, migrations, worker heartbeat" },
  {
    pattern: "/demo/**",
    allow: PUBLIC,
    why: "the demo sender's callback receiver (dev only; checks the webhook signature)",
  },
  // Sign-in
  { pattern: "/api/auth/**", allow: PUBLIC, why: "next-auth: sign-in, sign-out, CSRF token" },
  { pattern: "/login", allow: PUBLIC, why: "sign-in page" },
  { pattern: "/", allow: PUBLIC, why: "landing page: sends a signed-in user to the queue" },
  {
    pattern: "/login/two-factor",
    allow: STAFF,
    why: "second sign-in step (TOTP or recovery code): the one page a session with a second factor due opens",
  },
  {
    pattern: "/security",
    allow: STAFF,
    why: "the user's own two-factor enrolment (also the one page a session that must enrol opens)",
  },
  { pattern: "/api/session/logout", allow: PUBLIC, why: "sign-out: also clears a session that has already ended" },
  // Dashboard: deciding is a pharmacist's act (the approval is the legal transfer record)
  { pattern: "/api/transfers/*/claim", allow: ["pharmacist"], why: "claim, renew or release a transfer for review" },
  { pattern: "/api/transfers/*/approve", allow: ["pharmacist"], why: "approve: CONFIRMED to the sender" },
  { pattern: "/api/transfers/*/reject", allow: ["pharmacist"], why: "reject: ERROR to the sender" },
  {
    pattern: "/api/transfers/*/verify",
    allow: ["pharmacist"],
    why: "receive and verify a transfer confirmed automatically under the store's policy",
  },
  { pattern: "/api/transfers/*/callbacks/**", allow: STAFF, why: "callback deliveries of a transfer; redeliver" },
  {
    pattern: "/api/transfers/export",
    allow: STAFF,
    why: "transfer log for inspections (CSV of decided transfers; audited)",
  },
  { pattern: "/api/transfers/log", allow: STAFF, why: "the transfer log's table of decided transfers (audited)" },
  { pattern: "/api/transfers/**", allow: STAFF, why: "queue, review data, status and timeline" },
  { pattern: "/api/session/**", allow: STAFF, why: "session activity heartbeat" },
  {
    pattern: "/api/overview",
    allow: STAFF,
    why: "the day's and the last 30 days' figures as JSON (partner figures for admins only)",
  },
  { pattern: "/overview", allow: STAFF, why: "overview charts: the day, the last 30 days, partners (admins)" },
  {
    pattern: "/continue",
    allow: STAFF,
    why: "a dashboard page opened from another site: asks to continue (no audit row is written from a cross-site request)",
  },
  {
    pattern: "/transfers/log",
    allow: STAFF,
    why: "transfer log for inspections: choose a date range and download the CSV",
  },
  { pattern: "/transfers/**", allow: STAFF, why: "queue, review screen, printable transfer record" },
  // Administration (admin issue)
  { pattern: "/admin/**", allow: ["admin"], why: "partners, keys, users, audit log" },
  { pattern: "/api/admin/**", allow: ["admin"], why: "admin JSON API" },
];

/** What applies to a path nobody listed: signed-in staff only (deny the anonymous by default). */
export const DEFAULT_RULE: AccessRule = { pattern: "**", allow: STAFF, why: "not listed: signed-in users only" };

/**
 * Paths proxy.ts does not run on at all (its `matcher`, which must be a literal there). Every one of them
 * must be public in the table above; a unit test holds the two together.
 */
export const PROXY_SKIPPED_PREFIXES = [
  "/_next/static/",
  "/_next/image",
  "/favicon.ico",
  "/v1/",
  "/oauth/token",
] as const;

export function matchesPattern(pattern: string, pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (pattern === "**") return true;
  const want = pattern.split("/").filter(Boolean);
  const have = path.split("/").filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === "**") return true;
    const h = have[i];
    if (h === undefined) return false;
    if (w !== "*" && w !== h) return false;
  }
  return want.length === have.length;
}

function firstRuleFor(pathname: string, method: string): AccessRule {
  return (
    ACCESS_POLICY.find(
      (rule) => (!rule.methods || rule.methods.includes(method)) && matchesPattern(rule.pattern, pathname),
    ) ?? DEFAULT_RULE
  );
}

/**
 * The ways a router, a proxy or a later decoding step might read this path: as sent, percent-decoded once
 * and twice (`/api/%61dmin`, `/api/%2561dmin`), with dot segments and repeated slashes resolved
 * (`/api/x/..%2fadmin`), and lowercased (`/API/admin`). Used so that no spelling of a path gets a more
 * lenient rule than another spelling of it.
 */
export function pathVariants(pathname: string): string[] {
  const variants = new Set<string>([pathname]);
  let current = pathname;
  for (let i = 0; i < 2; i++) {
    try {
      const decoded = decodeURIComponent(current);
      if (decoded === current) break;
      variants.add(decoded);
      current = decoded;
    } catch {
      break;
    }
  }
  for (const v of [...variants]) {
    const collapsed = v.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
    variants.add(collapsed);
    try {
      variants.add(new URL(collapsed, "http://path.invalid").pathname);
    } catch {
      // not resolvable: the other spellings still count
    }
  }
  for (const v of [...variants]) variants.add(v.toLowerCase());
  return [...variants];
}

/**
 * The row that applies to a path. A path that reads differently once decoded, resolved or lowercased gets
 * only what every reading allows (the intersection of their rows): `/api/%61dmin/users` is as admin-only as
 * `/api/admin/users`, whatever the router later makes of it.
 */
export function accessRuleFor(pathname: string, method = "GET"): AccessRule {
  const m = method.toUpperCase();
  const rules = [...new Set(pathVariants(pathname).map((variant) => firstRuleFor(variant, m)))];
  if (rules.length === 1) return rules[0]!;
  const allow = rules.reduce<readonly Access[]>(
    (shared, rule) => shared.filter((a) => rule.allow.includes(a)),
    rules[0]!.allow,
  );
  return {
    pattern: pathname,
    allow,
    why: `a non-canonical path: only what each of its readings allows (${rules.map((r) => r.pattern).join(", ")})`,
  };
}

export function isPublic(rule: AccessRule): boolean {
  return rule.allow.includes("anonymous");
}

export function isAllowed(rule: AccessRule, role: Role | null): boolean {
  if (isPublic(rule)) return true;
  return role !== null && rule.allow.includes(role);
}

/** Dashboard API routes answer 401/403 as problem+json; pages redirect to the sign-in page. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}
