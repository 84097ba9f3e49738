// Dashboard API bodies had no content-type check, and a route that does not read its body
// accepted any size. Writes under /api/ (next-auth's aside) answer 413/415 problem+json, never a 500.
import { beforeAll, describe, expect, it } from "vitest";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createTestUser, signedInCookie } from "@/tests/support/dashboard-session";

const { baseUrl } = connectTestEnvironment();
let pharmacistCookie: string;
let adminCookie: string;

beforeAll(async () => {
  pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist"));
  adminCookie = await signedInCookie(baseUrl, await createTestUser("admin"));
});

async function write(path: string, init: RequestInit & { cookie: string }) {
  const res = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { cookie: init.cookie, accept: "application/json", ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    body: (text ? JSON.parse(text) : null) as { status?: number; title?: string } | null,
  };
}

const big = JSON.stringify({ reason: "x".repeat(70 * 1024) });

describe("dashboard API bodies", () => {
  it("an oversized body is 413 problem+json, on a route that reads its body and on one that does not", async () => {
    for (const [path, cookie] of [
      ["/api/transfers/trf_nope/reject", pharmacistCookie],
      ["/api/transfers/trf_nope/claim", pharmacistCookie],
      ["/api/session/activity", pharmacistCookie],
      ["/api/admin/partners", adminCookie],
    ] as const) {
      const answer = await write(path, {
        method: "POST",
        cookie,
        headers: { "content-type": "application/json" },
        body: big,
      });
      expect(answer.status, path).toBe(413);
      expect(answer.contentType).toContain("application/problem+json");
      expect(answer.body?.title).toBe("Request too large");
    }
  });

  it("an oversized body sent without Content-Length (chunked) is cut off at the cap: 413", async () => {
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const answer = await write("/api/admin/partners", {
      method: "POST",
      cookie: adminCookie,
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit & { cookie: string });
    expect(answer.status).toBe(413);
  });

  it("a body that is not JSON is 415 problem+json", async () => {
    for (const [type, body] of [
      ["text/plain", JSON.stringify({ localRxNumber: "L-1" })],
      ["application/x-www-form-urlencoded", "localRxNumber=L-1"],
      ["multipart/form-data; boundary=x", "--x--"],
      ["application/json; charset=latin1", "{}"],
    ]) {
      const answer = await write("/api/transfers/trf_nope/approve", {
        method: "POST",
        cookie: pharmacistCookie,
        headers: { "content-type": type! },
        body,
      });
      expect(answer.status, type).toBe(415);
      expect(answer.contentType).toContain("application/problem+json");
    }
    const missing = await fetch(`${baseUrl}/api/admin/partners`, {
      method: "POST",
      headers: { cookie: adminCookie },
      body: new Uint8Array([123, 125]),
    });
    expect(missing.status).toBe(415);
  });

  it("a JSON body within the cap, or no body, goes on to the route", async () => {
    const withBody = await write("/api/transfers/trf_nope/reject", {
      method: "POST",
      cookie: pharmacistCookie,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: "{}",
    });
    expect([400, 404]).toContain(withBody.status);
    const empty = await write("/api/session/activity", { method: "POST", cookie: pharmacistCookie });
    expect(empty.status).toBe(200);
  });

  it("the public sign-out reads at most a few bytes of a body: a huge one still signs out, never a 500", async () => {
    const user = await createTestUser("pharmacist");
    const cookie = await signedInCookie(baseUrl, user);
    const res = await fetch(`${baseUrl}/api/session/logout`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ reason: "user", pad: "x".repeat(256 * 1024) }),
    });
    expect(res.status).toBe(204);
    const after = await fetch(`${baseUrl}/api/transfers`, { headers: { cookie, accept: "application/json" } });
    expect(after.status).toBe(401);
  });
});
