// Bodies were parsed before the caller was known (an anonymous 1 MB body cost 45-900 ms), and validation time
// was bounded by size, not shape (1 MB of 120,000 keys took seconds and held /healthz up meanwhile). Now the
// caller is authenticated from the header before the body is read, and the body's shape (keys per object,
// items per array, values, depth) is bounded on its text before it is parsed or validated: SPEC_MISMATCH
// naming the place. The machine these tests run on is shared, so the one timing here has a generous bound:
// it tells seconds of blocking (the old behaviour) from a bounded cost, not fast from slow.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { BODY_SHAPE_LIMITS } from "@/lib/interface";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const RATE_PER_MINUTE = 600;
let server: TestServer;
let partner: CreatedPartner;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl, env: { V1_RATE_LIMIT_PER_MINUTE: String(RATE_PER_MINUTE) } });
  partner = await createTestPartner("Hostile bodies");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** Just under 1 MB: metadata with `count` extra keys. */
function manyKeys(count = 110_000): string {
  const request = freshRequest();
  const extras = Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(",");
  return JSON.stringify(request).replace('"metadata":{', `"metadata":{${extras},`);
}

/** Sends the headers of a 1 MB POST and never the body: the answer must come without it. */
function answerWithoutBody(authorization: string | undefined): Promise<{ status: number; body: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: url.hostname,
      port: url.port,
      method: "POST",
      path: "/v1/transfer",
      agent: false,
      headers: {
        "content-type": "application/json",
        "content-length": String(1024 * 1024 - 1),
        ...(authorization ? { authorization } : {}),
      },
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(new Error("no answer within 10 s: the server waited for the body of an unauthenticated request"));
    }, 10_000);
    outgoing.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        outgoing.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    outgoing.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    outgoing.flushHeaders();
  });
}

describe("hostile /v1/transfer bodies", () => {
  it.each([
    ["no Authorization header", undefined],
    ["an unknown API key", "senderKey rxk_unknownunknownunknownunknown0000"],
    ["an unknown bearer token", "Bearer rxt_unknownunknownunknownunknown0000"],
  ])("with %s, answers 401 before the body is sent", async (_, authorization) => {
    const answer = await answerWithoutBody(authorization);
    expect(answer.status, answer.body).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ metadata: { responseType: "ERROR" }, error: { type: "OTHER" } });
  });

  it.each([
    ["120,000 keys in metadata", () => manyKeys(), `metadata has more than ${BODY_SHAPE_LIMITS.keysPerObject} keys`],
    [
      "100,000 allergies",
      () =>
        JSON.stringify(
          freshRequest((r) => (r.patient.allergyDetails.allergies = Array.from({ length: 100_000 }, () => "x"))),
        ),
      `patient.allergyDetails.allergies has more than ${BODY_SHAPE_LIMITS.itemsPerArray} items`,
    ],
    [
      "a metadata value nested 100,000 deep",
      () =>
        JSON.stringify(freshRequest()).replace(
          '"metadata":{',
          `"metadata":{"deep":${"[".repeat(1e5)}${"]".repeat(1e5)},`,
        ),
      "is nested too deeply (more than 32 levels)",
    ],
  ])("refuses %s by shape: 400 SPEC_MISMATCH naming the place", async (_, body, description) => {
    const answer = await send(server.baseUrl, { raw: body(), authorization: senderKey(partner.apiKey) });
    expectEnvelope(answer);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error?.type).toBe("SPEC_MISMATCH");
    expect(answer.body.error?.description).toContain(description);
  });

  it("a key revoked since this process last saw it is refused 401 for a hostile body, not answered its 400", async () => {
    const key = await createApiKey({ partnerId: partner.partnerId });
    expect((await send(server.baseUrl, { body: freshRequest(), authorization: senderKey(key.apiKey) })).status).toBe(
      200,
    );
    await revokeApiKey({ keyId: key.keyId });
    for (const [raw, headers] of [
      [manyKeys(), {}],
      ["{", {}],
      [JSON.stringify(freshRequest()), { "content-type": "text/plain" }],
    ] as const) {
      const answer = await send(server.baseUrl, { raw, headers, authorization: senderKey(key.apiKey) });
      expect(answer.status, answer.text).toBe(401);
    }
  });

  it("keeps /healthz answering while authenticated hostile bodies arrive at the rate limit", async () => {
    const hostile = manyKeys();
    const sender = await createTestPartner("Hostile rate");
    const seconds = 8;
    const perSecond = RATE_PER_MINUTE / 60;
    const statuses: number[] = [];
    const latencies: number[] = [];
    let sending = true;
    const health = (async () => {
      while (sending) {
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}/healthz`);
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < seconds * perSecond; i++) {
      sends.push(
        send(server.baseUrl, { raw: hostile, authorization: senderKey(sender.apiKey) }).then((a) => {
          statuses.push(a.status);
        }),
      );
      await new Promise((r) => setTimeout(r, 1000 / perSecond));
    }
    await Promise.all(sends);
    sending = false;
    await health;
    // Every hostile body got its precise answer (none was over the rate limit: they came at it, not past it).
    expect(new Set(statuses)).toEqual(new Set([400]));
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
    // The aim is 100 ms; the bound leaves room for a loaded test machine.
    expect(latencies.length).toBeGreaterThan(50);
    expect(p99, `p99 ${p99.toFixed(0)} ms over ${latencies.length} probes`).toBeLessThan(500);
  }, 60_000);
});
