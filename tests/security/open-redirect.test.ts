// Finding 1: after signing in, the callbackUrl may lead only to a page of this site. A browser
// strips tabs and newlines from a URL and reads `\` as `/`, so `/\t/evil.example` was `//evil.example`.
// Every Location is read here as a browser reads it (WHATWG URL against the page's address).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signedInCookie, signInOverHttp, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const origin = new URL(baseUrl).origin;

/** Raw callbackUrl values (sent percent-encoded as a query parameter or a form field). */
const HOSTILE = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\n/evil.example",
  "/%0a/evil.example",
  "/\r/evil.example",
  "/%0d%0a/evil.example",
  "/\u0000/evil.example",
  "/\u007f/evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/%5Cevil.example",
  "/%5c/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "//evil.example",
  "///evil.example",
  "//evil.example/transfers",
  "https://evil.example",
  "https://evil.example/transfers",
  "http:evil.example",
  "javascript:alert(document.domain)",
  "data:text/html,<script>alert(1)</script>",
  `${origin}@evil.example/`,
  " //evil.example",
];

/** next-auth names this server as Next's request URL does ("localhost" for a loopback address): same server. */
function siteOf(url: URL): string {
  const host = url.hostname === "localhost" ? "127.0.0.1" : url.hostname;
  return `${url.protocol}//${host}:${url.port}`;
}

function expectSafeLocation(location: string | null, what: string) {
  expect(location, `${what}: a redirect`).toBeTruthy();
  expect(location!, `${what}: no control character or backslash in Location`).not.toMatch(/[\u0000-\u001f\u007f\\]/);
  const target = new URL(location!, baseUrl);
  expect(siteOf(target), `${what}: stays on this site (${location})`).toBe(siteOf(new URL(origin)));
  expect(target.pathname.startsWith("//"), `${what}: not scheme-relative (${location})`).toBe(false);
}

let user: TestUser;
let cookie: string;

beforeAll(async () => {
  user = await createTestUser("pharmacist", "Redirect Tester");
  cookie = await signedInCookie(baseUrl, user);
});

describe("GET /login?callbackUrl=… for a signed-in user", () => {
  it.each(HOSTILE)("%j goes to a page of this site", async (value) => {
    const res = await fetch(`${baseUrl}/login?${new URLSearchParams({ callbackUrl: value })}`, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(res.status, value).toBeLessThan(500);
    expect([303, 307, 308]).toContain(res.status);
    expectSafeLocation(res.headers.get("location"), value);
    expect(new URL(res.headers.get("location")!, baseUrl).pathname).toBe("/transfers");
  });

  it("still comes back to a page of this site, with its query", async () => {
    const res = await fetch(`${baseUrl}/login?${new URLSearchParams({ callbackUrl: "/transfers?status=CONFIRMED" })}`, {
      headers: { cookie },
      redirect: "manual",
    });
    const target = new URL(res.headers.get("location")!, baseUrl);
    expect(target.origin).toBe(origin);
    expect(`${target.pathname}${target.search}`).toBe("/transfers?status=CONFIRMED");
  });
});

describe("the sign-in POST's callbackUrl (next-auth's credentials endpoint)", () => {
  it.each(HOSTILE)("%j goes to a page of this site", async (value) => {
    const answer = await signInOverHttp(baseUrl, user.email, user.password, {}, value);
    expect(answer.status, value).toBeLessThan(500);
    expect(answer.sessionCookie, value).not.toBeNull();
    expectSafeLocation(answer.location, value);
    expect(new URL(answer.location, baseUrl).pathname).toBe("/transfers");
  });

  it("keeps a path of this site", async () => {
    const answer = await signInOverHttp(baseUrl, user.email, user.password, {}, "/admin/users?x=1");
    const target = new URL(answer.location, baseUrl);
    expect(siteOf(target)).toBe(siteOf(new URL(origin)));
    expect(`${target.pathname}${target.search}`).toBe("/admin/users?x=1");
  });
});
