// Fuzzing /v1 over real HTTP against `npm start`'s server (its direct intake route) and PostgreSQL:
// mutations of a valid request, text PostgreSQL cannot store, bodies that are not JSON or not UTF-8,
// odd headers and methods, malformed paths. Every answer must be a TransferResponse with a 4xx, or a 200
// where the request was in fact valid; never a 5xx, never a dropped connection.
// Replay a failure: FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run tests/integration/fuzz-transfer.test.ts
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/create-api-key";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { getStoreNpis } from "@/lib/stores/store-npis";
import { formatPath, textProblem } from "@/lib/text-safety";
import {
  findShapeProblem,
  validateTransferRequest,
  TransferResponseSchema,
  type ErrorType,
  type TransferResponse,
} from "@/lib/interface";
import { createTestPartner, freshRequest } from "@/tests/support/api";
import {
  expectJsonAnswer,
  expectNoServerError,
  fuzzParameters,
  isNormalisingRedirect,
  resolvesUnder,
  reportFuzzRun,
  sendRaw,
  type RawAnswer,
} from "@/tests/support/fuzz";
import { hostilePathArb, invalidUtf8Arb, spliceBytes } from "@/tests/support/fuzz-bytes-and-paths";
import { mutate, mutationArb, stringPathsOf, valueAt } from "@/tests/support/fuzz-mutations";
import {
  extremeNumberArb,
  hostileKeyArb,
  hostileTextArb,
  setOwn,
  unstorableTextArb,
} from "@/tests/support/fuzz-values";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
reportFuzzRun("fuzz-transfer");
let partner: CreatedPartner;
let storeNpis: ReadonlySet<string>;

// /v1 allows V1_RATE_LIMIT_PER_MINUTE (1200) requests a minute per credential: a fresh key every 400
// requests keeps the fuzzer testing validation rather than the rate limit.
const keys: string[] = [];
let keyUses = 0;
async function authorization(): Promise<string> {
  if (keyUses++ % 400 === 0) keys.push((await createApiKey({ partnerId: partner.partnerId })).apiKey);
  return `senderKey ${keys[keys.length - 1]}`;
}

beforeAll(async () => {
  partner = await createTestPartner("Fuzz");
  storeNpis = await getStoreNpis();
});

function expectTransferResponse(answer: RawAnswer): TransferResponse {
  const body = expectJsonAnswer(answer, "application/json");
  const parsed = TransferResponseSchema.safeParse(body);
  if (!parsed.success)
    throw new Error(`answer ${answer.status} is not a TransferResponse: ${answer.text.slice(0, 500)}`);
  return parsed.data;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** What the service must answer to these bytes: accept them, or refuse them with this error type. */
function expectedFor(bytes: Uint8Array): { accepted: true } | { accepted: false; type: ErrorType } {
  let text: string;
  let value: unknown;
  try {
    text = STRICT_UTF8.decode(bytes);
    // A body past the shape limits is refused before it is parsed or validated.
    if (findShapeProblem(text)) return { accepted: false, type: "SPEC_MISMATCH" };
    value = JSON.parse(text);
  } catch {
    return { accepted: false, type: "SPEC_MISMATCH" };
  }
  const result = validateTransferRequest(value, { storeNpis, now: new Date() });
  return result.ok ? { accepted: true } : { accepted: false, type: result.type };
}

async function postTransfer(body: string | Uint8Array): Promise<TransferResponse & { status: number }> {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const answer = await sendRaw(baseUrl, {
    method: "POST",
    path: "/v1/transfer",
    headers: { "content-type": "application/json", authorization: await authorization() },
    body: bytes,
  });
  const response = expectTransferResponse(answer);
  const expected = expectedFor(bytes);
  if (expected.accepted) {
    // A valid request is stored, unless its (mutated) rxNumber or requestID was seen before.
    if (answer.status === 200) expect(response.metadata.responseType).toBe("RECEIVED");
    else expect([answer.status, response.error?.type]).toEqual([400, "DUPLICATE_REQUEST"]);
  } else {
    expect([answer.status, response.error?.type], response.error?.description).toEqual([400, expected.type]);
  }
  return { ...response, status: answer.status };
}

const jsonText = (value: unknown) => JSON.stringify(value) ?? "";

describe("POST /v1/transfer under fuzzing", () => {
  it("answers mutations of a valid request (deleted keys, wrong types, extreme numbers, hostile text, extra keys, deep nesting) with a TransferResponse", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (mutations) => {
        await postTransfer(jsonText(mutate(freshRequest(), mutations)));
      }),
      fuzzParameters(700),
    );
  });

  it("refuses every string and key name PostgreSQL cannot store as SPEC_MISMATCH naming each path", async () => {
    const injectionArb = fc.record({ at: fc.nat(), text: unstorableTextArb, asKeyName: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(injectionArb, { minLength: 1, maxLength: 3 }), async (injections) => {
        const request = freshRequest() as unknown as Record<string, unknown>;
        const leaves = stringPathsOf(request);
        const expected: string[] = [];
        for (const { at, text, asKeyName } of injections) {
          const path = leaves[at % leaves.length]!;
          const parent = valueAt(request, path.slice(0, -1)) as Record<string, unknown>;
          if (asKeyName && !Array.isArray(parent)) {
            // An unknown key whose name cannot be stored, beside the chosen field. Such names all read `[?]`,
            // so two of them in one object are one path, named once.
            setOwn(parent, text, "value");
            expected.push(`${formatPath([...path.slice(0, -1), text])} has a name that `);
          } else {
            setOwn(parent, String(path[path.length - 1]), text);
          }
        }
        for (const path of leaves) {
          const value = valueAt(request, path);
          const problem = typeof value === "string" ? textProblem(value) : null;
          if (problem) expected.push(`${formatPath(path)} ${problem}`);
        }
        const response = await postTransfer(jsonText(request));
        expect(response.error?.type).toBe("SPEC_MISMATCH");
        for (const phrase of expected.slice(0, 20)) expect(response.error?.description).toContain(phrase);
        const requestID = (request.metadata as { requestID: string }).requestID;
        expect(response.requestID).toBe(textProblem(requestID) ? "" : requestID);
      }),
      fuzzParameters(250),
    );
  });

  it("answers bodies that are not JSON, not UTF-8, or JSON with odd literals", async () => {
    // Built from one valid request, so a counterexample prints as the very bytes sent; repeats of it are
    // idempotent replays.
    const valid = jsonText(freshRequest());
    const withMetadata = (key: string, value: unknown) => {
      const request = JSON.parse(valid) as Record<string, Record<string, unknown>>;
      setOwn(request.metadata!, key, value);
      return jsonText(request);
    };
    const bodyArb: fc.Arbitrary<string | Uint8Array> = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.tuple(invalidUtf8Arb, fc.nat()).map(([bytes, at]) => spliceBytes(valid, bytes, at)),
      // A lone surrogate as a JSON escape (what JSON.stringify writes for one), and a NUL.
      fc
        .constantFrom("\\ud800", "\\udfff", "\\u0000", "\\uDBFF\\u0041")
        .map((escape) => valid.replace('"lastName":"', `"lastName":"${escape}`)),
      fc.constantFrom("\uFEFF", " \n\t", "[", "null", "[]", '""', "{}", "0", "{}{}").map((prefix) => prefix + valid),
      fc.nat({ max: valid.length - 1 }).map((cut) => valid.slice(0, cut)),
      fc
        .constantFrom(
          "1e999",
          "-1e999",
          "123456789012345678901234567890",
          "0.1e-400",
          "-0",
          "1E2",
          "0x10",
          "Infinity",
          "NaN",
          "01",
        )
        .chain((literal) =>
          fc
            .constantFrom("daysSupply", "quantityWritten", "dawCode", "refillsRemaining")
            .map((field) => valid.replace(new RegExp(`"${field}":[^,}]+`), `"${field}":${literal}`)),
        ),
      fc
        .constantFrom(10, 1000, 20_000)
        .map((depth) => valid.replace('"metadata":{', `"metadata":{"deep":${"[".repeat(depth)}${"]".repeat(depth)},`)),
      fc
        .tuple(hostileKeyArb, fc.oneof(hostileTextArb, extremeNumberArb))
        .map(([key, value]) => withMetadata(key, value)),
    );
    await fc.assert(
      fc.asyncProperty(bodyArb, async (body) => {
        await postTransfer(body);
      }),
      fuzzParameters(400),
    );
  });

  it("answers odd content types, credentials and methods with a TransferResponse", async () => {
    const caseArb = fc.record({
      method: fc.constantFrom("POST", "GET", "PUT", "PATCH", "DELETE"),
      contentType: fc.option(
        fc.constantFrom(
          "application/json",
          "application/json; charset=latin1",
          "text/plain",
          'application/json;charset="utf-8"',
          "multipart/form-data; boundary=x",
          "application/x-www-form-urlencoded",
          "APPLICATION/JSON",
          ";;;",
          "\u00e9",
        ),
        { nil: undefined },
      ),
      authorization: fc.option(
        fc.constantFrom(
          "valid",
          "senderKey ",
          "Bearer ",
          "Bearer rxt_x",
          "Basic abc",
          "senderKey rxk_\u00ff",
          "rxk_nope",
          "senderKey\tx",
          "x".repeat(5000),
        ),
        { nil: undefined },
      ),
      body: fc.option(fc.oneof(fc.constant("valid"), hostileTextArb), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ method, contentType, authorization: auth, body }) => {
        const headers: Record<string, string> = {};
        if (contentType !== undefined) headers["content-type"] = contentType;
        if (auth !== undefined) headers.authorization = auth === "valid" ? await authorization() : auth;
        const answer = await sendRaw(baseUrl, {
          method,
          path: "/v1/transfer",
          headers,
          body: body === "valid" ? jsonText(freshRequest()) : body,
        });
        const response = expectTransferResponse(answer);
        if (answer.status === 200) {
          expect([method, contentType?.toLowerCase().startsWith("application/json"), auth, body]).toEqual([
            "POST",
            true,
            "valid",
            "valid",
          ]);
          expect(response.metadata.responseType).toBe("RECEIVED");
        }
      }),
      fuzzParameters(150),
    );
  });

  it("answers malformed and hostile paths under /v1 with a TransferResponse", async () => {
    const pathArb = hostilePathArb("/v1", "/v1/transfer");
    await fc.assert(
      fc.asyncProperty(pathArb, fc.constantFrom("GET", "POST", "DELETE"), async (path, method) => {
        const answer = await sendRaw(baseUrl, {
          method,
          path,
          headers: { authorization: await authorization(), "content-type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        if (isNormalisingRedirect(answer)) return;
        if (!resolvesUnder(path, "/v1")) return expectNoServerError(answer);
        const response = expectTransferResponse(answer);
        expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
        expect(response.metadata.responseType).toBe("ERROR");
      }),
      fuzzParameters(250),
    );
  });
});
