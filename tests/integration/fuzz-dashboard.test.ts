// Fuzzing the dashboard's JSON API over real HTTP against `npm start`'s server and PostgreSQL, signed in
// as a pharmacist and as an admin: hostile JSON bodies (mutations of valid ones), route parameters and
// query strings, and malformed paths. Every answer must be problem+json with a 4xx, or a 2xx where the
// input was in fact valid; never a 5xx, never a dropped connection.
// Replay a failure: FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run tests/integration/fuzz-dashboard.test.ts
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  CallbackUrlInputSchema,
  CreateApiKeyInputSchema,
  CreatePartnerInputSchema,
  OutboundCredentialInputSchema,
  RotateApiKeyInputSchema,
  RotateWebhookSecretInputSchema,
  SuspensionInputSchema,
  UpdatePartnerInputSchema,
} from "@/lib/partners/partner-inputs";
import { CreateUserInputSchema, ResetPasswordInputSchema, UpdateUserInputSchema } from "@/lib/users/user-inputs";
import { StoreInputSchema } from "@/lib/stores/store-inputs";
import { createApiKey } from "@/lib/auth/create-api-key";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { db } from "@/lib/db/prisma";
import { newId } from "@/lib/ids";
import { findJsonProblems, textProblem } from "@/lib/text-safety";
import { ApproveInputSchema, RejectInputSchema } from "@/lib/transfers/decision";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, signedInCookie } from "@/tests/support/dashboard-session";
import {
  expectJsonAnswer,
  expectNoServerError,
  expectProblem,
  fuzzParameters,
  isNextMethodNotAllowed,
  isNormalisingRedirect,
  resolvesUnder,
  reportFuzzRun,
  sendRaw,
  type RawAnswer,
} from "@/tests/support/fuzz";
import { hostilePathArb, invalidUtf8Arb, percentEncode, spliceBytes } from "@/tests/support/fuzz-bytes-and-paths";
import { mutate, mutationArb } from "@/tests/support/fuzz-mutations";
import { hostileTextArb, unstorableTextArb } from "@/tests/support/fuzz-values";
import { connectTestEnvironment } from "@/tests/support/integration";

const FUZZ_STORE_NPIS = ["1987654302", "1987654310"] as const;

const { baseUrl } = connectTestEnvironment();
reportFuzzRun("fuzz-dashboard");
const cookies = { pharmacist: "", admin: "" };
/** Real rows for route parameters, so a valid request meets a real thing (throwaway ones: fuzzing may change them). */
const ids = { transfer: "", partner: "", key: "", client: "", user: "", store: "" };

beforeAll(async () => {
  const [pharmacist, admin] = [
    await createTestUser("pharmacist", "Fuzz Pharmacist"),
    await createTestUser("admin", "Fuzz Admin"),
  ];
  cookies.pharmacist = await signedInCookie(baseUrl, pharmacist);
  cookies.admin = await signedInCookie(baseUrl, admin);
  const partner = await createTestPartner("Fuzz Dashboard");
  const transfer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  expect(transfer.status).toBe(200);
  ids.transfer = transfer.body.metadata.referenceID;
  ids.partner = partner.partnerId;
  ids.key = (await createApiKey({ partnerId: partner.partnerId })).keyId;
  ids.client = (await createOAuthClient({ partnerId: partner.partnerId })).clientId;
  ids.user = (await createTestUser("pharmacist", "Fuzz Victim")).id;
  ids.store = newId("str");
  await db().store.create({ data: { id: ids.store, npi: FUZZ_STORE_NPIS[0], name: "Fuzz Store" } });
});

// NPIs of this file's own (other files add stores with other NPIs to the same database); removed afterwards.
afterAll(async () => {
  await db().store.deleteMany({ where: { npi: { in: [...FUZZ_STORE_NPIS] } } });
});

type Role = keyof typeof cookies;
type Param = keyof typeof ids;
/** A route, the role that may use it, and for a JSON body the schema it takes and a valid example. */
type Target = {
  role: Role;
  method: string;
  path: string;
  param?: Param;
  schema?: z.ZodType;
  valid?: Record<string, unknown>;
};

const TARGETS: Target[] = [
  { role: "pharmacist", method: "GET", path: "/api/transfers/{}", param: "transfer" },
  { role: "pharmacist", method: "GET", path: "/api/transfers/{}/status", param: "transfer" },
  { role: "pharmacist", method: "GET", path: "/api/transfers/{}/callbacks", param: "transfer" },
  { role: "pharmacist", method: "POST", path: "/api/transfers/{}/claim", param: "transfer" },
  { role: "pharmacist", method: "DELETE", path: "/api/transfers/{}/claim", param: "transfer" },
  { role: "pharmacist", method: "POST", path: "/api/transfers/{}/callbacks/redeliver", param: "transfer" },
  {
    role: "pharmacist",
    method: "POST",
    path: "/api/transfers/{}/approve",
    param: "transfer",
    schema: ApproveInputSchema,
    valid: { drugSchedule: "CIV", localRxNumber: "L-100", note: "checked" },
  },
  {
    role: "pharmacist",
    method: "POST",
    path: "/api/transfers/{}/reject",
    param: "transfer",
    schema: RejectInputSchema,
    valid: { errorType: "INVALID_INFO", description: "prescriber.npi does not match" },
  },
  { role: "pharmacist", method: "POST", path: "/api/session/activity" },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/partners",
    schema: CreatePartnerInputSchema,
    valid: { name: "Fuzz Partner", callbackUrl: "https://partner.example/rx-callbacks", npis: [] },
  },
  { role: "admin", method: "GET", path: "/api/admin/partners/{}", param: "partner" },
  {
    role: "admin",
    method: "PATCH",
    path: "/api/admin/partners/{}",
    param: "partner",
    schema: UpdatePartnerInputSchema,
    valid: { name: "Fuzz Renamed", npis: ["1558598797"] },
  },
  {
    role: "admin",
    method: "PUT",
    path: "/api/admin/partners/{}/callback-url",
    param: "partner",
    schema: CallbackUrlInputSchema,
    valid: { callbackUrl: "https://partner.example/cb" },
  },
  {
    role: "admin",
    method: "PUT",
    path: "/api/admin/partners/{}/outbound-credential",
    param: "partner",
    schema: OutboundCredentialInputSchema,
    valid: { headerName: "X-Api-Key", headerValue: "secret-value" },
  },
  { role: "admin", method: "DELETE", path: "/api/admin/partners/{}/outbound-credential", param: "partner" },
  {
    role: "admin",
    method: "PUT",
    path: "/api/admin/partners/{}/suspension",
    param: "partner",
    schema: SuspensionInputSchema,
    valid: { suspended: false },
  },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/partners/{}/webhook-secret",
    param: "partner",
    schema: RotateWebhookSecretInputSchema,
    valid: { overlapHours: 1 },
  },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/partners/{}/keys",
    param: "partner",
    schema: CreateApiKeyInputSchema,
    valid: { expiresInDays: 30 },
  },
  { role: "admin", method: "POST", path: "/api/admin/partners/{}/oauth-clients", param: "partner" },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/keys/{}/rotate",
    param: "key",
    schema: RotateApiKeyInputSchema,
    valid: { overlapHours: 1 },
  },
  { role: "admin", method: "POST", path: "/api/admin/keys/{}/revoke", param: "key" },
  { role: "admin", method: "POST", path: "/api/admin/oauth-clients/{}/revoke", param: "client" },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/users",
    schema: CreateUserInputSchema,
    valid: { email: "fuzz@pharmacy.example", name: "Fuzz", role: "pharmacist", password: "long enough" },
  },
  {
    role: "admin",
    method: "PATCH",
    path: "/api/admin/users/{}",
    param: "user",
    schema: UpdateUserInputSchema,
    valid: { role: "pharmacist" },
  },
  {
    role: "admin",
    method: "PUT",
    path: "/api/admin/users/{}/password",
    param: "user",
    schema: ResetPasswordInputSchema,
    valid: { password: "long enough" },
  },
  {
    role: "admin",
    method: "POST",
    path: "/api/admin/stores",
    schema: StoreInputSchema,
    valid: {
      name: "Fuzz East",
      npi: FUZZ_STORE_NPIS[1],
      dea: "",
      addressLine1: "1 Main St",
      city: "Media",
      state: "PA",
      postalCode: "19063",
    },
  },
  { role: "admin", method: "DELETE", path: "/api/admin/stores/{}", param: "store" },
];

const QUERY_TARGETS: { role: Role; path: string; keys: string[] }[] = [
  {
    role: "pharmacist",
    path: "/api/transfers",
    keys: ["status", "sender", "from", "to", "flags", "q", "sort", "cursor", "limit"],
  },
  {
    role: "admin",
    path: "/api/admin/audit",
    keys: ["user", "action", "transfer", "from", "to", "order", "limit", "cursor"],
  },
  { role: "admin", path: "/api/admin/audit/export", keys: ["user", "action", "transfer", "from", "to", "order"] },
];

function request(role: Role, method: string, path: string, body?: string | Uint8Array): Promise<RawAnswer> {
  const headers: Record<string, string> = { cookie: cookies[role], accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  return sendRaw(baseUrl, { method, path, headers, body });
}

/** problem+json with a 4xx, or a 2xx JSON answer (CSV for the audit export). */
function expectDashboardAnswer(answer: RawAnswer): boolean {
  if (answer.status >= 200 && answer.status < 300) {
    if ((answer.headers["content-type"] ?? "").startsWith("text/csv")) return true;
    expectJsonAnswer(answer, "application/json");
    return true;
  }
  expectProblem(answer);
  return false;
}

/** Stands for the real row's id in a counterexample (the ids are made in beforeAll). */
const REAL_ID = "<real id>";
const paramArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(REAL_ID) },
  { weight: 2, arbitrary: unstorableTextArb },
  { weight: 1, arbitrary: hostileTextArb },
);

describe("the dashboard API under fuzzing", () => {
  it("answers hostile JSON bodies and route parameters with problem+json, or 2xx only for valid input", async () => {
    const targetArb = fc.constantFrom(...TARGETS).chain((target) =>
      fc.record({
        route: fc.constant(`${target.method} ${target.path}`),
        param: target.param ? paramArb : fc.constant(""),
        body: fc.oneof(
          {
            weight: 6,
            arbitrary: fc
              .array(mutationArb, { maxLength: 3 })
              .map((mutations) => JSON.stringify(mutate(target.valid ?? {}, mutations)) ?? ""),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(invalidUtf8Arb, fc.nat())
              .map(([bytes, at]) => spliceBytes(JSON.stringify(target.valid ?? {}), bytes, at)),
          },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "",
              "{",
              "[]",
              "null",
              '"x"',
              "\uFEFF{}",
              '{"__proto__":{"admin":true}}',
              `{"x":"${"x".repeat(70_000)}"}`,
            ),
          },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(targetArb, async ({ route, param, body }) => {
        const target = TARGETS.find((t) => `${t.method} ${t.path}` === route)!;
        const value = param === REAL_ID && target.param ? ids[target.param] : param;
        const sent = target.schema ? body : undefined;
        const path = target.path.replace("{}", percentEncode(value));
        const answer = await request(target.role, target.method, path, sent);
        if (isNormalisingRedirect(answer)) return;
        const succeeded = expectDashboardAnswer(answer);
        if (textProblem(value)) expect(answer.status, answer.text).toBe(400);
        if (succeeded && target.schema && sent !== undefined) {
          // As the server reads it: an empty body is an empty object.
          const text = typeof sent === "string" ? sent : Buffer.from(sent).toString("utf8");
          const parsed = (text.trim() === "" ? {} : JSON.parse(text)) as unknown;
          expect(findJsonProblems(parsed)).toEqual([]);
          expect(target.schema.safeParse(parsed).success).toBe(true);
        }
      }),
      fuzzParameters(350),
    );
  });

  it("answers hostile query strings (the queue's search, the audit filters) with problem+json or results", async () => {
    const queryArb = fc.constantFrom(...QUERY_TARGETS).chain((target) =>
      fc.record({
        target: fc.constant(target),
        pairs: fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...target.keys), hostileTextArb),
            fc.oneof(unstorableTextArb, hostileTextArb),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        raw: fc.option(fc.constantFrom("%", "%ZZ", "q=%E0%A4%A", "q=%ED%A0%80", "q=%00", "&&==&", "q", "flags=,,,"), {
          nil: undefined,
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(queryArb, async ({ target, pairs, raw }) => {
        const query = [...pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`), ...(raw ? [raw] : [])].join(
          "&",
        );
        const answer = await request(target.role, "GET", `${target.path}?${query}`);
        expectDashboardAnswer(answer);
        // As the server reads the query: percent-encoded bytes that are not UTF-8 arrive as U+FFFD, a %00 as a NUL.
        if ([...new URLSearchParams(query)].some(([k, v]) => textProblem(k) ?? textProblem(v)))
          expect(answer.status, answer.text).toBe(400);
      }),
      fuzzParameters(200),
    );
  });

  it("answers malformed and hostile paths under /api with problem+json", async () => {
    const pathArb = hostilePathArb("/api", "/api/transfers");
    await fc.assert(
      fc.asyncProperty(
        pathArb,
        fc.constantFrom<Role>("pharmacist", "admin"),
        fc.constantFrom("GET", "POST", "DELETE"),
        async (path, role, method) => {
          const answer = await request(role, method, path, method === "POST" ? "{}" : undefined);
          if (isNormalisingRedirect(answer) || isNextMethodNotAllowed(answer)) return;
          if (!resolvesUnder(path, "/api")) return expectNoServerError(answer);
          expectDashboardAnswer(answer);
        },
      ),
      fuzzParameters(200),
    );
  });
});
