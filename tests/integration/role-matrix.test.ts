// The role matrix: every page and route handler in app/ (found by walking the directory, so a new one cannot
// be forgotten), every method it exports, for the anonymous, a pharmacist and an admin, over real HTTP
// against the production server, compared with what lib/auth/access-policy.ts declares. Then the two
// kinds of credentials must not cross: partner credentials never open the dashboard, a dashboard session
// never opens the partner API, and a partner reaches only its own transfers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { accessRuleFor, DEFAULT_RULE, isAllowed, isApiPath, isPublic, type Role } from "@/lib/auth/access-policy";
import { createApiKey } from "@/lib/auth/create-api-key";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { db } from "@/lib/db/prisma";
import { newId } from "@/lib/ids";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const APP_DIR = path.resolve(import.meta.dirname, "../../app");
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type Endpoint = {
  kind: "page" | "route";
  /** app/ file, for messages */
  file: string;
  /** the URL path pattern, e.g. /admin/partners/[partnerId] */
  pattern: string;
  /** has a catch-all segment ([...x] / [[...x]]) */
  catchAll: boolean;
  methods: string[];
};

/** The HTTP methods a route.ts exports: `export function GET`, `export const GET`, `export const { GET }`, `export { x as GET }`. */
function exportedMethods(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+([A-Z]+)\b/g)) names.add(m[1]!);
  for (const m of source.matchAll(/export\s+(?:const\s+)?\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return HTTP_METHODS.filter((method) => names.has(method));
}

/** Every page.tsx and route.ts under app/, as URL patterns; route groups "(x)" add no segment. */
function walkApp(dir = APP_DIR, segments: string[] = []): Endpoint[] {
  const found: Endpoint[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_") || entry.name.startsWith("@")) continue; // private folders, parallel-route slots
      const isGroup = /^\(.*\)$/.test(entry.name);
      found.push(...walkApp(full, isGroup ? segments : [...segments, entry.name]));
      continue;
    }
    const rel = path.relative(APP_DIR, full);
    const pattern = `/${segments.join("/")}`;
    const catchAll = segments.some((s) => /^\[\[?\.\.\./.test(s));
    if (/^page\.(tsx|ts|jsx|js)$/.test(entry.name))
      found.push({ kind: "page", file: rel, pattern, catchAll, methods: ["GET"] });
    if (/^route\.(ts|js)$/.test(entry.name))
      found.push({ kind: "route", file: rel, pattern, catchAll, methods: exportedMethods(readFileSync(full, "utf8")) });
  }
  return found;
}

const ENDPOINTS = walkApp();
const ROLES: (Role | "anonymous")[] = ["anonymous", "pharmacist", "admin"];

/** Sample values for dynamic segments, made in beforeAll: real rows, so an allowed request meets a real thing. */
const samples: Record<string, string> = {
  // Catch-alls: a path nothing else answers (the catch-all's own 404), or next-auth's session endpoint.
  "[...path]": "no-such-route",
  "[...nextauth]": "session",
};

function samplePath(pattern: string): string {
  return pattern.replace(/\[\[?(\.\.\.)?[^\]]+\]\]?/g, (segment) => {
    const key = segment.replace(/^\[\[/, "[").replace(/\]\]$/, "]");
    const value = samples[key];
    if (value === undefined) throw new Error(`role-matrix.test.ts needs a sample value for ${segment} (in ${pattern})`);
    return value;
  });
}

/**
 * Pages that answer an allowed visitor with a redirect of their own (not the access policy's): a
 * signed-in user is sent on from the landing and sign-in pages (and the two-factor step) to the queue.
 */
const OWN_REDIRECTS: Record<string, { whenSignedIn: string }> = {
  "/": { whenSignedIn: "/transfers" },
  "/login": { whenSignedIn: "/transfers" },
  // The second sign-in step, for a session whose code is already given (tests/security/two-factor.test.ts covers the rest).
  "/login/two-factor": { whenSignedIn: "/transfers" },
};

/** Public routes whose callers authenticate with partner credentials: their own 401 is the right answer here. */
function usesPartnerCredentials(p: string): boolean {
  return p.startsWith("/v1/") || p === "/oauth/token";
}

let partner: CreatedPartner;
let otherPartner: CreatedPartner;
let bearerToken: string;
const cookies: Record<Role, string> = { pharmacist: "", admin: "" };
const matrixUsers: Partial<Record<Role, TestUser>> = {};
/** Routes that end the caller's own session on the server: the role signs in again after them. */
const ENDS_OWN_SESSION = new Set(["POST /api/session/logout", "POST /api/session/sign-out-all"]);

beforeAll(async () => {
  partner = await createTestPartner("Role matrix");
  otherPartner = await createTestPartner("Role matrix other");
  const transfer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  expect(transfer.status).toBe(200);
  // Throwaway rows for the admin routes that act on one (an allowed admin request may revoke or remove it).
  const spareKey = await createApiKey({ partnerId: partner.partnerId });
  const spareClient = await createOAuthClient({ partnerId: partner.partnerId });
  const spareUser = await createTestUser("pharmacist", "Matrix Spare");
  const storeId = newId("str");
  await db().store.deleteMany({ where: { npi: "1234567893" } });
  await db().store.create({ data: { id: storeId, npi: "1234567893", name: "Matrix Spare Store" } });
  Object.assign(samples, {
    "[referenceID]": transfer.body.metadata.referenceID,
    "[partnerId]": partner.partnerId,
    "[keyId]": spareKey.keyId,
    "[clientId]": spareClient.clientId,
    "[userId]": spareUser.id,
    "[storeId]": storeId,
  });
  matrixUsers.pharmacist = await createTestUser("pharmacist", "Matrix Pharmacist");
  matrixUsers.admin = await createTestUser("admin", "Matrix Admin");
  cookies.pharmacist = await signedInCookie(baseUrl, matrixUsers.pharmacist);
  cookies.admin = await signedInCookie(baseUrl, matrixUsers.admin);

  const token = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    }),
  });
  expect(token.status).toBe(200);
  bearerToken = ((await token.json()) as { access_token: string }).access_token;
});

type Answer = { status: number; location: URL | null; contentType: string; body: string; wwwAuthenticate: string };

async function request(
  method: string,
  urlPath: string,
  opts: { cookie?: string; authorization?: string; page?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: opts.page ? "text/html" : "application/json" };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.authorization) headers.authorization = opts.authorization;
  const hasBody = ["POST", "PUT", "PATCH"].includes(method);
  if (hasBody) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers,
    body: hasBody ? "{}" : undefined,
    redirect: "manual",
  });
  const body = method === "HEAD" ? "" : await res.text();
  const location = res.headers.get("location");
  return {
    status: res.status,
    location: location ? new URL(location, baseUrl) : null,
    contentType: res.headers.get("content-type") ?? "",
    body,
    wwwAuthenticate: res.headers.get("www-authenticate") ?? "",
  };
}

function isRedirect(a: Answer): boolean {
  return a.status >= 300 && a.status < 400 && a.location !== null;
}

/** The dashboard's own refusal (proxy.ts or requireApiUser): problem+json 401/403, or a redirect to sign in. */
function isDashboardRefusal(a: Answer): boolean {
  if (isRedirect(a) && a.location!.pathname === "/login") return true;
  return (
    (a.status === 401 || a.status === 403) &&
    (a.contentType.includes("application/problem+json") || a.wwwAuthenticate.startsWith("Session"))
  );
}

describe("the role matrix", () => {
  it("finds the app's pages and routes, including the admin area", () => {
    const patterns = ENDPOINTS.map((e) => `${e.kind} ${e.pattern}`);
    for (const expected of [
      "page /transfers",
      "page /admin",
      "page /admin/partners/[partnerId]",
      "page /admin/audit",
      "route /api/admin/audit/export",
      "page /transfers/log",
      "route /api/transfers/export",
      "route /v1/transfer",
    ]) {
      expect(patterns).toContain(expected);
    }
    for (const e of ENDPOINTS) expect(e.methods.length, `${e.file} exports no HTTP method`).toBeGreaterThan(0);
  });

  it("declares every page and route in lib/auth/access-policy.ts", () => {
    const undeclared: string[] = [];
    for (const e of ENDPOINTS) {
      for (const method of e.methods) {
        const rule = accessRuleFor(samplePath(e.pattern), method);
        // A catch-all answers for paths nobody declared: the table's default rule (signed-in users) is its row.
        if (rule === DEFAULT_RULE && !e.catchAll) undeclared.push(`${method} ${e.pattern} (${e.file})`);
      }
    }
    expect(undeclared, "add a row to ACCESS_POLICY for these").toEqual([]);
  });

  it("gives the anonymous, pharmacists and admins exactly what the table says, for every page and route", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const e of ENDPOINTS) {
      const urlPath = samplePath(e.pattern);
      for (const method of e.methods) {
        const rule = accessRuleFor(urlPath, method);
        for (const role of ROLES) {
          const signedIn = role !== "anonymous";
          const allowed = isAllowed(rule, signedIn ? role : null);
          const a = await request(method, urlPath, {
            cookie: signedIn ? cookies[role] : undefined,
            page: e.kind === "page",
          });
          if (signedIn && ENDS_OWN_SESSION.has(`${method} ${urlPath}`))
            cookies[role] = await signedInCookie(baseUrl, matrixUsers[role]!);
          const where = `${role} ${method} ${urlPath} → ${a.status}${a.location ? ` ${a.location.pathname}${a.location.search}` : ""}`;
          checked++;
          if (process.env.ROLE_MATRIX_LOG) console.log(`${allowed ? "allow" : "deny "} ${where}`);
          if (e.kind === "page") {
            if (allowed) {
              const own = OWN_REDIRECTS[urlPath];
              if (signedIn && own) {
                if (!(isRedirect(a) && a.location!.pathname === own.whenSignedIn))
                  failures.push(`${where}: expected the page's own redirect to ${own.whenSignedIn}`);
              } else if (a.status !== 200) failures.push(`${where}: expected 200`);
            } else if (!signedIn) {
              if (!(
                isRedirect(a) &&
                a.location!.pathname === "/login" &&
                a.location!.searchParams.get("callbackUrl") === urlPath
              )) {
                failures.push(`${where}: expected a redirect to /login?callbackUrl=${urlPath}`);
              }
            } else if (!(
              a.status === 403 ||
              (isRedirect(a) &&
                a.location!.pathname === "/transfers" &&
                a.location!.searchParams.get("denied") === urlPath)
            )) {
              failures.push(`${where}: expected 403 or a redirect to /transfers?denied=${urlPath}`);
            }
          } else if (allowed) {
            if (
              urlPath.startsWith("/api/integration/")
                ? // The integration key's own 401 is problem+json too; the dashboard's refusal challenges "Session".
                  a.status === 403 ||
                  a.wwwAuthenticate.startsWith("Session") ||
                  (isRedirect(a) && a.location!.pathname === "/login")
                : usesPartnerCredentials(urlPath)
                  ? isDashboardRefusal(a)
                  : a.status === 401 || a.status === 403 || isDashboardRefusal(a)
            ) {
              failures.push(`${where}: expected the route's own answer, not a refusal`);
            }
          } else if (a.status !== (signedIn ? 403 : 401) || !a.contentType.includes("application/problem+json")) {
            failures.push(`${where}: expected ${signedIn ? 403 : 401} problem+json`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe("credentials do not cross", () => {
  it("a partner's API key or bearer token opens no dashboard page or dashboard API route", async () => {
    const failures: string[] = [];
    const authorizations = [
      senderKey(partner.apiKey),
      partner.apiKey,
      `Bearer ${bearerToken}`,
      `Bearer ${partner.apiKey}`,
    ];
    for (const e of ENDPOINTS) {
      const urlPath = samplePath(e.pattern);
      if (e.kind === "route" && !isApiPath(urlPath)) continue; // /v1, /oauth/token, /demo: not the dashboard
      for (const method of e.methods) {
        if (isPublic(accessRuleFor(urlPath, method))) continue;
        for (const authorization of authorizations) {
          const a = await request(method, urlPath, { authorization, page: e.kind === "page" });
          const where = `${method} ${urlPath} with ${authorization.split(" ")[0]} → ${a.status}`;
          if (e.kind === "page" ? !(isRedirect(a) && a.location!.pathname === "/login") : a.status !== 401)
            failures.push(where);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("a dashboard session does not authenticate the transfer API", async () => {
    const referenceID = samples["[referenceID]"]!;
    for (const cookie of [cookies.pharmacist, cookies.admin]) {
      const post = await send(baseUrl, { body: freshRequest(), headers: { cookie } });
      expect(post.status).toBe(401);
      expect(post.headers.get("www-authenticate")).toBeTruthy();
      const lookup = await send(baseUrl, { method: "GET", path: `/v1/transfer/${referenceID}`, headers: { cookie } });
      expect(lookup.status).toBe(401);
    }
  });

  it("a partner's credentials reach only its own transfers", async () => {
    const referenceID = samples["[referenceID]"]!;
    const own = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${referenceID}`,
      authorization: senderKey(partner.apiKey),
    });
    expect(own.status).toBe(200);
    const other = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${referenceID}`,
      authorization: senderKey(otherPartner.apiKey),
    });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain(own.body.metadata.responseID);
  });
});
