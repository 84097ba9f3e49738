import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_LOGIN, safeCallbackPath, sameOriginPath } from "@/lib/auth/safe-callback";

const HOSTILE = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  "/\u007f/evil.example",
  "/\u0085/evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "//evil.example",
  "///evil.example",
  "/%2F/evil.example",
  "/%2fevil.example",
  "/%5Cevil.example",
  "/%5c/evil.example",
  "/%0a/evil.example",
  "https://evil.example/transfers",
  "http:evil.example",
  "javascript:alert(1)",
  "data:text/html,hi",
  "evil.example",
  "",
  " /transfers",
  "/api/transfers",
  "/api",
  "/login",
  "/login?callbackUrl=//evil.example",
  "/transfers/../api/admin/users",
  "/transfers/%2e%2e/%2e%2e/api/admin/users",
  "/",
];

describe("safeCallbackPath", () => {
  it.each(HOSTILE)("sends %j to the queue", (value) => {
    expect(safeCallbackPath(value)).toBe(DEFAULT_AFTER_LOGIN);
  });

  it("refuses what is not a string or is too long", () => {
    expect(safeCallbackPath(undefined)).toBe(DEFAULT_AFTER_LOGIN);
    expect(safeCallbackPath(["/transfers/x"])).toBe(DEFAULT_AFTER_LOGIN);
    expect(safeCallbackPath(`/transfers?q=${"a".repeat(2100)}`)).toBe(DEFAULT_AFTER_LOGIN);
  });

  it("keeps paths of this site, with their query and fragment, as the URL parser reads them", () => {
    expect(safeCallbackPath("/transfers/trf_123")).toBe("/transfers/trf_123");
    expect(safeCallbackPath("/transfers?status=CONFIRMED&q=smith%20j")).toBe("/transfers?status=CONFIRMED&q=smith%20j");
    expect(safeCallbackPath("/admin/users#top")).toBe("/admin/users#top");
    expect(safeCallbackPath("/admin/./users")).toBe("/admin/users");
    expect(safeCallbackPath("/transfers/a b")).toBe("/transfers/a%20b");
  });
});

describe("sameOriginPath (next-auth's redirect callback)", () => {
  const origin = "http://127.0.0.1:3000";
  it("keeps absolute URLs of the app's own origin as paths", () => {
    expect(sameOriginPath("http://127.0.0.1:3000/transfers/trf_1?x=1", origin)).toBe("/transfers/trf_1?x=1");
    expect(sameOriginPath("/admin", origin)).toBe("/admin");
  });
  it("refuses other origins, user info, and every hostile path", () => {
    expect(sameOriginPath("http://127.0.0.1:3001/transfers", origin)).toBe(DEFAULT_AFTER_LOGIN);
    expect(sameOriginPath("https://127.0.0.1:3000/transfers", origin)).toBe(DEFAULT_AFTER_LOGIN);
    expect(sameOriginPath("http://user:pw@127.0.0.1:3000/transfers", origin)).toBe(DEFAULT_AFTER_LOGIN);
    expect(sameOriginPath("http://127.0.0.1:3000\\@evil.example/", origin)).toBe(DEFAULT_AFTER_LOGIN);
    expect(sameOriginPath("http://127.0.0.1:3000", origin)).toBe(DEFAULT_AFTER_LOGIN);
    for (const value of HOSTILE) expect(sameOriginPath(value, origin)).toBe(DEFAULT_AFTER_LOGIN);
  });
});
