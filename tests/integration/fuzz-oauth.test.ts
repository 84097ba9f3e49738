// Fuzzing POST /oauth/token over real HTTP against `npm start`'s server and PostgreSQL: form bodies (and
// JSON ones, which are refused) with hostile fields, HTTP Basic credentials, raw bytes, odd content types and
// methods. Every answer must be a token (only for the real client's credentials) or an OAuth error JSON
// (RFC 6749 §5.2) with a 4xx; never a 5xx, never a dropped connection.
// Replay a failure: FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run tests/integration/fuzz-oauth.test.ts
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { textProblem } from "@/lib/text-safety";
import { createTestPartner } from "@/tests/support/api";
import { expectJsonAnswer, fuzzParameters, reportFuzzRun, sendRaw, type RawAnswer } from "@/tests/support/fuzz";
import { invalidUtf8Arb, percentEncode, spliceBytes } from "@/tests/support/fuzz-bytes-and-paths";
import { hostileKeyArb, hostileTextArb, setOwn, unstorableTextArb } from "@/tests/support/fuzz-values";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
reportFuzzRun("fuzz-oauth");
let client: CreatedPartner;

beforeAll(async () => {
  client = await createTestPartner("Fuzz OAuth");
});

const OAUTH_ERRORS = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "temporarily_unavailable",
];

/** A token, or an OAuth error with a 4xx (RFC 6749 §5.1, §5.2). Returns whether a token was issued. */
function expectOAuthAnswer(answer: RawAnswer): boolean {
  const body = expectJsonAnswer(answer, "application/json") as Record<string, unknown>;
  if (answer.status === 200) {
    expect(body).toMatchObject({
      access_token: expect.stringMatching(/^rxt_/),
      token_type: "Bearer",
      expires_in: expect.any(Number),
    });
    return true;
  }
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
  expect(OAUTH_ERRORS, answer.text).toContain(body.error);
  if (body.error_description !== undefined) expect(typeof body.error_description).toBe("string");
  return false;
}

/** A field's value: the real one, or something hostile. */
const fieldArb = (real: () => string) =>
  fc
    .option(
      fc.oneof(
        { weight: 3, arbitrary: fc.constant("REAL") },
        { weight: 2, arbitrary: unstorableTextArb },
        { weight: 2, arbitrary: hostileTextArb },
      ),
      { nil: undefined },
    )
    .map((v) => (v === "REAL" ? real() : v));

const formEncode = (fields: [string, string][]) =>
  fields.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&");
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${percentEncode(id)}:${percentEncode(secret)}`).toString("base64")}`;

describe("POST /oauth/token under fuzzing", () => {
  it("answers hostile form and JSON fields and HTTP Basic credentials with a token or an OAuth error", async () => {
    const caseArb = fc.record({
      grantType: fieldArb(() => "client_credentials"),
      clientId: fieldArb(() => client.clientId),
      clientSecret: fieldArb(() => client.clientSecret),
      useBasic: fc.boolean(),
      extra: fc.option(fc.tuple(hostileKeyArb, hostileTextArb), { nil: undefined }),
      asJson: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ grantType, clientId, clientSecret, useBasic, extra, asJson }) => {
        const fields: [string, string][] = [];
        if (grantType !== undefined) fields.push(["grant_type", grantType]);
        if (!useBasic && clientId !== undefined) fields.push(["client_id", clientId]);
        if (!useBasic && clientSecret !== undefined) fields.push(["client_secret", clientSecret]);
        if (extra) fields.push(extra);
        const headers: Record<string, string> = {
          "content-type": asJson ? "application/json" : "application/x-www-form-urlencoded",
        };
        if (useBasic) headers.authorization = basic(clientId ?? "", clientSecret ?? "");
        let body: string;
        if (asJson) {
          const object: Record<string, unknown> = {};
          for (const [k, v] of fields) setOwn(object, k, v);
          body = JSON.stringify(object);
        } else {
          body = formEncode(fields);
        }
        const issued = expectOAuthAnswer(
          await sendRaw(baseUrl, { method: "POST", path: "/oauth/token", headers, body }),
        );
        // RFC 6749 §4.4.2: the body is form-encoded; a JSON body never gets a token.
        if (asJson) expect(issued).toBe(false);
        if (issued) {
          expect([grantType, clientId, clientSecret]).toEqual([
            "client_credentials",
            client.clientId,
            client.clientSecret,
          ]);
          // The extra field is ignored, unless it is text the request cannot carry, as the server reads it (a
          // form's percent-encoded bytes that are not UTF-8 arrive as U+FFFD; JSON escapes as they are).
          const fieldsRead = asJson ? fields : [...new URLSearchParams(body)];
          expect(fieldsRead.filter(([k, v]) => textProblem(k) ?? textProblem(v))).toEqual([]);
        }
      }),
      fuzzParameters(300),
    );
  });

  it("answers raw bytes, not-UTF-8 bodies, odd content types, Basic headers and methods with an OAuth error", async () => {
    const validForm = () =>
      formEncode([
        ["grant_type", "client_credentials"],
        ["client_id", client.clientId],
        ["client_secret", client.clientSecret],
      ]);
    const caseArb = fc.record({
      method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE"),
      contentType: fc.option(
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "application/json",
          "text/plain",
          "multipart/form-data",
          "application/x-www-form-urlencoded; charset=latin1",
          ";",
        ),
        { nil: undefined },
      ),
      authorization: fc.option(
        fc.constantFrom(
          "Basic",
          "Basic !!!",
          "Basic " + Buffer.from("nocolon").toString("base64"),
          "Basic " + Buffer.from("%E0%A4%A:x").toString("base64"),
          "Basic " + Buffer.from("a\u0000b:c").toString("base64"),
          "Basic " + Buffer.from([0xff, 0x3a, 0xfe]).toString("base64"),
          "Bearer x",
          "x".repeat(5000),
        ),
        { nil: undefined },
      ),
      body: fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((bytes) => () => bytes),
        fc.tuple(invalidUtf8Arb, fc.nat()).map(
          ([bytes, at]) =>
            () =>
              spliceBytes(validForm(), bytes, at),
        ),
        fc
          .constantFrom(
            "",
            "=",
            "&&&",
            "grant_type",
            "grant_type=%",
            "grant_type=%ZZ",
            "grant_type=%00",
            "client_id=%ED%A0%80",
            "{",
            "[]",
            "null",
            '{"__proto__":{"grant_type":"client_credentials"}}',
            '{"grant_type":"\\ud800"}',
          )
          .map((text) => () => text),
        fc.constant(() => validForm()),
      ),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ method, contentType, authorization, body }) => {
        const headers: Record<string, string> = {};
        if (contentType !== undefined) headers["content-type"] = contentType;
        if (authorization !== undefined) headers.authorization = authorization;
        const sent = body();
        const answer = await sendRaw(baseUrl, { method, path: "/oauth/token", headers, body: sent });
        if (expectOAuthAnswer(answer)) {
          // Only the real credentials in a form; an Authorization header that is not Basic credentials is ignored.
          expect([method, contentType?.startsWith("application/x-www-form-urlencoded"), sent === validForm()]).toEqual([
            "POST",
            true,
            true,
          ]);
        }
      }),
      fuzzParameters(250),
    );
  });
});
