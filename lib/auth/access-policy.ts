// Who may call each route and open each page: the one table. proxy.ts applies it to every request it
// sees (an optimistic check on the session cookie); requirePageUser / requireApiUser apply it again in
// every dashboard page and API route against the database (user exists, not disabled, role, session
// version). Add a row here for every new page or route; the first matching row wins.
//
// "anonymous" rows are public. The /v1 API and /oauth/token are public *to dashboard sessions*: they
// have their own partner credentials (lib/auth/sender-auth.ts), which in turn never open the dashboard
// (dashboard routes read only the session cookie, never the Authorization header).

export const ROLES = ["pharmacist", "admin"] as const;
export type Role = (typeof ROLES)[number];
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
  { pattern: "/v1/**", allow: PUBLIC, why: "transfer API: partner API key or OAuth bearer token, checked by the route" },
  { pattern: "/oauth/token", allow: PUBLIC, why: "OAuth client credentials grant: client id and secret" },
  { pattern: "/docs", allow: PUBLIC, why: "API documentation for sending pharmacies" },
  { pattern: "/demo/**", allow: PUBLIC, why: "the demo sender's callback receiver (dev only; checks the webhook signature)" },
  // Sign-in
  { pattern: "/api/auth/**", allow: PUBLIC, why: "next-auth: sign-in, sign-out, CSRF token" },
  { pattern: "/login", allow: PUBLIC, why: "sign-in page" },
  { pattern: "/", allow: PUBLIC, why: "landing page: sends a signed-in user to the queue" },
  { pattern: "/login/two-factor", allow: STAFF, why: "second sign-in step (TOTP or recovery code): the one page a session with a second factor due opens" },
  { pattern: "/security", allow: STAFF, why: "the user's own two-factor enrolment (also the one page a session that must enrol opens)" },
  { pattern: "/api/session/logout", allow: PUBLIC, why: "sign-out: also clears a session that has already ended" },
  // Dashboard: deciding is a pharmacist's act (the approval is the legal transfer record)
  { pattern: "/api/transfers/*/claim", allow: ["pharmacist"], why: "claim, renew or release a transfer for review" },
  { pattern: "/api/transfers/*/approve", allow: ["pharmacist"], why: "approve: CONFIRMED to the sender" },
  { pattern: "/api/transfers/*/reject", allow: ["pharmacist"], why: "reject: ERROR to the sender" },
  { pattern: "/api/transfers/*/callbacks/**", allow: STAFF, why: "callback deliveries of a transfer; redeliver" },
  { pattern: "/api/transfers/export", allow: STAFF, why: "transfer log for inspections (CSV of decided transfers; audited)" },
  { pattern: "/api/transfers/**", allow: STAFF, why: "queue, review data, status and timeline" },
  { pattern: "/api/session/**", allow: STAFF, why: "session activity heartbeat" },
  { pattern: "/continue", allow: STAFF, why: "a dashboard page opened from another site: asks to continue (no audit row is written from a cross-site request)" },
  { pattern: "/transfers/log", allow: STAFF, why: "transfer log for inspections: choose a date range and download the CSV" },
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
export const PROXY_SKIPPED_PREFIXES = ["/_next/static/", "/_next/image", "/favicon.ico", "/v1/", "/oauth/token"] as const;

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

export function accessRuleFor(pathname: string, method = "GET"): AccessRule {
  const m = method.toUpperCase();
  return (
    ACCESS_POLICY.find((rule) => (!rule.methods || rule.methods.includes(m)) && matchesPattern(rule.pattern, pathname)) ??
    DEFAULT_RULE
  );
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
