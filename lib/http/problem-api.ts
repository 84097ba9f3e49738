// The problem+json edge (app/api/**): the dashboard's own JSON API and the integration API. Every failure is
// an RFC 9457 problem+json, through one mapping (errorToProblem); unknown errors become a 500 naming a
// request id, never a stack trace. Its two doors: dashboardRoute (a signed-in user, per the access policy and
// the user row) and integrationRoute (an integration key, for interface engines rather than people). Route
// handlers stay thin: parse, call one domain operation, serialize with `json`.
import * as z from "zod";
import { AuthRefusal, requireApiUser, type SessionUser } from "@/lib/auth/require-user";
import { DomainError, type DomainErrorCode } from "@/lib/errors";
import { logUnexpectedFailure } from "@/lib/db/errors";
import { clientAddressOf, requestIdOf } from "@/lib/http/request-context";
import { log } from "@/lib/log";
import { json } from "@/lib/http/api-exchange";
import { problemResponse } from "@/lib/http/problem-response";
import { findIntegrationKey } from "@/lib/integration/integration-keys";
import { isJsonContentType, readBodyLimited } from "@/lib/http/read-body";
import { env } from "@/lib/env";
import { findJsonProblems, formatPath, textProblem, type JsonProblem } from "@/lib/text-safety";

export { json, problemResponse };

/** Thrown by the edge itself (authentication, parsing); domain code throws DomainError. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

const DOMAIN_STATUS: Record<DomainErrorCode, { status: number; title: string }> = {
  not_found: { status: 404, title: "Not found" },
  invalid_input: { status: 400, title: "Invalid request" },
  conflict: { status: 409, title: "Conflict" },
  forbidden: { status: 403, title: "Forbidden" },
  refused: { status: 422, title: "Refused by a rule" },
};

/** Domain errors may carry extension members for the problem body (e.g. who decided, and when). */
function extensionsOf(err: DomainError): Record<string, unknown> {
  const candidate: unknown = (err as { extensions?: unknown }).extensions;
  return candidate && typeof candidate === "object" ? (candidate as Record<string, unknown>) : {};
}

export type RouteContext<P> = {
  request: Request;
  user: SessionUser;
  params: P;
  clientAddress: string | null;
  requestId: string;
};

/** A dashboard API route: authenticated per the access policy, failures as problem+json. */
export function dashboardRoute<P = Record<string, never>>(handler: (ctx: RouteContext<P>) => Promise<Response>) {
  return (request: Request, context: { params: Promise<P> }): Promise<Response> =>
    answerWithProblems(request, "dashboard api", async (requestId) => {
      const user = await requireApiUser(request);
      refuseUnacceptableBody(request);
      const params = await context.params;
      refuseUnstorableText(params, new URL(request.url).searchParams);
      return handler({ request, user, params, clientAddress: clientAddressOf(request), requestId });
    });
}

export type IntegrationContext = { request: Request; keyId: string; requestId: string };

const INTEGRATION_CHALLENGE = 'Bearer realm="integration"';

/**
 * An integration API route (app/api/integration/**): an integration key in `Authorization: Bearer rxi_…`,
 * never a session; a missing, unknown or revoked key is a 401 with WWW-Authenticate.
 */
export function integrationRoute(handler: (ctx: IntegrationContext) => Promise<Response>) {
  return (request: Request): Promise<Response> =>
    answerWithProblems(request, "integration api", async (requestId) => {
      const match = /^Bearer ([^\s]+)$/i.exec(request.headers.get("authorization") ?? "");
      const keyId = match ? await findIntegrationKey({ integrationKey: match[1]! }) : null;
      if (!keyId) {
        return problemResponse(
          401,
          "unauthorized",
          "Integration key required",
          match
            ? "The integration key is unknown or revoked."
            : "Send an integration key as `Authorization: Bearer rxi_…` (an admin creates one).",
          {},
          { "www-authenticate": match ? `${INTEGRATION_CHALLENGE}, error="invalid_token"` : INTEGRATION_CHALLENGE },
        );
      }
      return handler({ request, keyId, requestId });
    });
}

/**
 * One request at a problem+json edge (the dashboard and integration APIs): whatever `answer` throws becomes
 * its problem, and the request is logged once with its status (an error line when it is a 5xx).
 */
async function answerWithProblems(
  request: Request,
  edge: string,
  answer: (requestId: string) => Promise<Response>,
): Promise<Response> {
  const requestId = requestIdOf(request);
  const started = performance.now();
  let status = 500;
  try {
    const response = await answer(requestId);
    status = response.status;
    return response;
  } catch (err) {
    const response = errorToProblem(err, requestId);
    status = response.status;
    return response;
  } finally {
    log(status >= 500 ? "error" : "debug", edge, {
      requestId,
      route: `${request.method} ${new URL(request.url).pathname}`,
      status,
      durationMs: Math.round(performance.now() - started),
    });
  }
}

export function errorToProblem(err: unknown, requestId: string): Response {
  if (err instanceof AuthRefusal) {
    const headers: Record<string, string> =
      err.status === 401 ? { "www-authenticate": 'Session realm="dashboard"' } : {};
    return problemResponse(
      err.status,
      err.code,
      err.status === 401 ? "Sign-in required" : "Forbidden",
      err.message,
      {},
      headers,
    );
  }
  if (err instanceof ApiProblem) {
    const headers: Record<string, string> =
      err.status === 401 ? { "www-authenticate": 'Session realm="dashboard"' } : {};
    return problemResponse(err.status, err.code, err.title, err.message, err.extensions, headers);
  }
  if (err instanceof DomainError) {
    const { status, title } = DOMAIN_STATUS[err.code];
    return problemResponse(status, err.code, title, err.message, extensionsOf(err));
  }
  if (logUnexpectedFailure(err, requestId).unavailable) {
    return problemResponse(
      503,
      "unavailable",
      "Service unavailable",
      `The database cannot be reached; try again shortly (request id ${requestId}).`,
      { requestId },
      { "retry-after": "5" },
    );
  }
  return problemResponse(
    500,
    "internal",
    "Internal error",
    `Something went wrong on our side; nothing was changed. Quote request id ${requestId} to support.`,
    { requestId },
  );
}

type FieldProblem = { field: string; message: string };

function invalidInput(fields: readonly FieldProblem[]): ApiProblem {
  return new ApiProblem(
    400,
    "invalid_input",
    "Invalid request",
    fields.map((f) => `${f.field || "body"}: ${f.message}`).join("; "),
    { fields },
  );
}

const fieldsOf = (problems: readonly JsonProblem[]): FieldProblem[] =>
  problems.map((p) => ({ field: formatPath(p.path), message: p.message }));

/**
 * Route parameters and query strings reach PostgreSQL as lookups and searches: text it cannot hold (a
 * %00, lib/text-safety.ts) is the client's mistake, a 400 naming the parameter, not a failed query.
 */
function refuseUnstorableText(params: unknown, query: URLSearchParams): void {
  const fields = fieldsOf(findJsonProblems(params));
  for (const [name, value] of query) {
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) fields.push({ field: formatPath([name]), message: problem });
  }
  if (fields.length > 0) throw invalidInput(fields);
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function tooLarge(limit: number): ApiProblem {
  return new ApiProblem(413, "too_large", "Request too large", `The request body is larger than ${limit} bytes.`, {
    limit,
  });
}

/**
 * Every dashboard write, whether or not its route reads a body: a declared body over the cap
 * (DASHBOARD_MAX_BODY_BYTES; the dashboard's forms send a few hundred bytes) is a 413, and a body that is
 * not JSON a 415, as on /v1. A body sent without Content-Length is cut off at the cap as it is read.
 */
function refuseUnacceptableBody(request: Request): void {
  if (!BODY_METHODS.has(request.method.toUpperCase())) return;
  const limit = env().DASHBOARD_MAX_BODY_BYTES;
  const length = request.headers.get("content-length");
  const declared = length === null ? null : Number(length);
  if (declared !== null && Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  // HTTP/1.1: a request has a body only with a Content-Length above 0 or a Transfer-Encoding (Next hands
  // route handlers a body stream either way).
  const hasBody = declared === null ? request.headers.has("transfer-encoding") : declared > 0;
  if (hasBody && !isJsonContentType(request.headers.get("content-type"))) {
    throw new ApiProblem(
      415,
      "unsupported_media_type",
      "Unsupported media type",
      "Send the request body as application/json (UTF-8).",
    );
  }
}

/** The JSON body of a request, validated; a bad one is a 400 naming the fields. */
export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const limit = env().DASHBOARD_MAX_BODY_BYTES;
  const read = await readBodyLimited(request, limit);
  if (!read.ok && read.reason === "too_large") throw tooLarge(limit);
  if (!read.ok) throw new ApiProblem(400, "invalid_json", "Invalid request", "The request body is not UTF-8 text.");
  let body: unknown;
  try {
    body = read.text.trim() === "" ? {} : JSON.parse(read.text);
  } catch {
    throw new ApiProblem(400, "invalid_json", "Invalid request", "The request body is not valid JSON.");
  }
  // Every string, unknown keys included, before the schema: what it passes on goes to the database.
  const unstorable = findJsonProblems(body);
  if (unstorable.length > 0) throw invalidInput(fieldsOf(unstorable));
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw invalidInput(parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })));
  return parsed.data;
}
