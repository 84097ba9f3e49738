// Encoded, double-encoded, case-changed and dot-segment spellings of admin paths must not get
// past the access table, for a pharmacist nor for someone signed out. Raw paths are sent as they are
// (node:http, not fetch, which would normalise them).
import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createTestUser, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";

const { baseUrl } = connectTestEnvironment();
let pharmacistCookie: string;
let admin: TestUser;

beforeAll(async () => {
  pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist"));
  admin = await createTestUser("admin");
});

function rawRequest(
  path: string,
  opts: { method?: string; cookie?: string; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? "GET",
        path,
        headers: {
          accept: "application/json",
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(opts.body ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

const SPELLINGS = [
  "/api/%61dmin/users",
  "/api/%2561dmin/users",
  "/API/admin/users",
  "/api/ADMIN/users",
  "/api/Admin/users",
  "/api/admin%2fusers",
  "/api/admin%2Fusers",
  "/api/transfers/..%2f..%2fadmin/users",
  "/api/transfers/%2e%2e/admin/users",
  "/api/transfers/%2e%2e%2fadmin/users",
  "/api/transfers/%252e%252e%252fadmin/users",
  "/api/transfers/..%5cadmin/users",
  "/api/transfers/../admin/users",
  "/api//admin/users",
  "/api/./admin/users",
  "/v1/..%2f..%2fapi/admin/users",
  "/%61pi/admin/users",
  "/api/admin/users/",
];

describe("spellings of an admin API path", () => {
  it.each(SPELLINGS)("%s is refused to a pharmacist and to the signed-out, and never lists users", async (path) => {
    for (const cookie of [pharmacistCookie, undefined]) {
      const answer = await rawRequest(path, { cookie });
      expect(answer.status, `${path} ${cookie ? "pharmacist" : "signed out"}: ${answer.text.slice(0, 200)}`).not.toBe(
        200,
      );
      expect(answer.status).not.toBe(500);
      expect(answer.text).not.toContain(admin.email);
    }
  });

  it.each(["/api/%61dmin/users", "/API/admin/users", "/api/transfers/..%2f..%2fadmin/users"])(
    "%s cannot create a user as a pharmacist",
    async (path) => {
      const body = JSON.stringify({
        email: `x-${Date.now()}@test.example`,
        name: "Mallory",
        role: "admin",
        password: "correct horse battery staple 1",
      });
      const answer = await rawRequest(path, { method: "POST", cookie: pharmacistCookie, body });
      expect([400, 401, 403, 404, 405, 307]).toContain(answer.status);
    },
  );

  it("spellings of an admin page do not render it for a pharmacist", async () => {
    for (const path of ["/%61dmin/users", "/ADMIN/users", "/transfers/..%2fadmin/users", "/admin%2fusers"]) {
      const answer = await rawRequest(path, { cookie: pharmacistCookie });
      expect(answer.status, path).not.toBe(200);
      expect(answer.text).not.toContain(admin.email);
    }
  });

  it("the canonical path still works for an admin", async () => {
    const cookie = await signedInCookie(baseUrl, admin);
    const answer = await rawRequest("/api/admin/users", { cookie });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(admin.email);
  });
});
