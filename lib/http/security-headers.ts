// Security headers. Pages get a per-request nonce CSP from proxy.ts (Next puts the nonce on its own
// scripts, so no inline script runs without it); next.config.ts sends the rest on every response.

/**
 * The CSP of a page: scripts only with this request's nonce (and what they load), nothing framed.
 * `formTargets`: other origins a form may lead to (the SSO provider, where the sign-in form's answer
 * redirects: form-action also covers redirects).
 */
export function pageContentSecurityPolicy(nonce: string, isDev: boolean, formTargets: string[] = []): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': chunks loaded by the nonced bootstrap are trusted; dev needs eval for fast refresh.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    // React and Next set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${isDev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON endpoints have nothing to run or show. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The referrer stays on this site: same-origin requests carry it, other sites get nothing. Not
 * `no-referrer`: under it browsers send `Origin: null` with a form posted without JavaScript (or before
 * hydration), and Next refuses such a Server Action as cross-site, so signing in failed with a 500.
 */
export const REFERRER_POLICY = "same-origin";

/** Sent on every response (next.config.ts). */
export const BASE_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: REFERRER_POLICY },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

export const HSTS = "max-age=63072000; includeSubDomains";

/**
 * Served over HTTPS, directly or behind a proxy that says so: only then is HSTS meaningful. X-Forwarded-Proto
 * reaches here only from a proxy in TRUSTED_PROXIES: our server removes a client's own (lib/http/client-address.ts).
 */
export function isHttps(request: { headers: Headers; url: string }): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded ? forwarded === "https" : new URL(request.url).protocol === "https:";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF guard for the dashboard's state-changing requests, on top of the SameSite=Lax session cookie:
 * browsers send Sec-Fetch-Site (or at least Origin) with every cross-site POST, PUT, PATCH or DELETE, so
 * one that says it comes from another site is refused. A request with neither header is not from a
 * browser page and carries no ambient-cookie risk.
 */
export function isCrossSiteWrite(request: { method: string; headers: Headers; url: string }): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** What next.config.ts sends on a JSON endpoint, for answers written without Next (lib/http/production-server.ts). */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.fromEntries([
  ...BASE_SECURITY_HEADERS.map((h) => [h.key, h.value]),
  ["Content-Security-Policy", API_CONTENT_SECURITY_POLICY],
]);
