// `npm start` answers POST /v1/transfer on its own route, ahead of Next (lib/http/production-server.ts);
// Next's route handler serves the same handler under `npm run dev`. Both must answer alike, headers included.
import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { postTransfer } from "@/lib/http/transfer-api";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;

beforeAll(async () => {
  partner = await createTestPartner("Direct route");
});

const SECURITY_HEADERS = [
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "cross-origin-opener-policy",
  "permissions-policy",
  "content-type",
  "cache-control",
];

/** The same request through Next's route handler, in this process (the Web Request/Response adapter). */
async function viaRouteHandler(opts: { body?: unknown; raw?: string; authorization?: string; contentType?: string }) {
  const headers: Record<string, string> = { "content-type": opts.contentType ?? "application/json" };
  if (opts.authorization) headers.authorization = opts.authorization;
  const res = await postTransfer(
    new Request(`${baseUrl}/v1/transfer`, { method: "POST", headers, body: opts.raw ?? JSON.stringify(opts.body) }),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe("the direct POST /v1/transfer route", () => {
  it("sends the headers Next sends on its /v1 routes", async () => {
    const direct = await send(baseUrl, { body: freshRequest(), authorization: null });
    const viaNext = await send(baseUrl, { method: "GET", path: "/v1/transfer/trf_unknown", authorization: null });
    expect(direct.status).toBe(401);
    expect(viaNext.status).toBe(401);
    for (const name of SECURITY_HEADERS) {
      expect(direct.headers.get(name), name).toBeTruthy();
      expect(direct.headers.get(name), name).toBe(viaNext.headers.get(name));
    }
    expect(direct.headers.get("www-authenticate")).toBe(viaNext.headers.get("www-authenticate"));
  });

  it("cuts off a chunked body over 1 MB (no Content-Length) with a 413 envelope", async () => {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${baseUrl}/v1/transfer`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: senderKey(partner.apiKey),
          "transfer-encoding": "chunked",
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      // The server may answer and close before every chunk is written.
      req.on("error", (err) =>
        err.message.includes("EPIPE") || err.message.includes("ECONNRESET") ? undefined : reject(err),
      );
      const chunk = Buffer.alloc(64 * 1024, "a");
      for (let sent = 0; sent < 1.2 * 1024 * 1024; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.text) as { metadata: { responseType: string }; error: { description: string } };
    expect(body.metadata.responseType).toBe("ERROR");
    expect(body.error.description).toContain("1 MB");
  });

  it("takes a query string and still answers from the same handler", async () => {
    const request = freshRequest();
    const answer = await send(baseUrl, {
      path: "/v1/transfer?source=test",
      body: request,
      authorization: senderKey(partner.apiKey),
    });
    expectEnvelope(answer);
    expect(answer.status).toBe(200);
    expect(answer.body.requestID).toBe(request.metadata.requestID);
  });
});

/** An error answer without what is new in every answer (its ids and time). */
function withoutPerAnswerFields(body: unknown): unknown {
  const copy = structuredClone(body) as { metadata?: Record<string, unknown> };
  if (copy.metadata) for (const key of ["referenceID", "responseID", "responseTimestamp"]) delete copy.metadata[key];
  return copy;
}

describe("Next's route handler and the direct route", () => {
  it("answer a replay, a bad field, bad JSON, a missing key and a wrong content type alike", async () => {
    const auth = senderKey(partner.apiKey);
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    expect(first.status).toBe(200);

    const replayDirect = await send(baseUrl, { body: request, authorization: auth });
    const replayNext = await viaRouteHandler({ body: request, authorization: auth });
    expect(replayNext.status).toBe(replayDirect.status);
    expect(replayNext.body).toEqual(replayDirect.body);
    expect(replayNext.headers.get("idempotent-replayed")).toBe("true");
    expect(replayDirect.headers.get("idempotent-replayed")).toBe("true");

    const bad = freshRequest((r) => {
      r.prescriber.npi = "123";
    });
    const cases = [
      { body: bad, authorization: auth },
      { raw: "{not json", authorization: auth },
      { body: freshRequest() },
      { body: freshRequest(), authorization: auth, contentType: "text/plain" },
    ];
    for (const c of cases) {
      const direct = await send(baseUrl, {
        body: c.body,
        raw: c.raw,
        authorization: c.authorization ?? null,
        headers: c.contentType ? { "content-type": c.contentType } : {},
      });
      const viaNext = await viaRouteHandler(c);
      expect(viaNext.status, JSON.stringify(direct.body)).toBe(direct.status);
      expect(withoutPerAnswerFields(viaNext.body)).toEqual(withoutPerAnswerFields(direct.body));
    }
  });
});
