// The HTTP edge of the dashboard's own JSON API (app/api/**): every failure is an RFC 9457
// problem+json; every route authenticates through requireApiUser (the access policy + the user row);
// unknown errors become a 500 naming a request id, never a stack trace. Route handlers stay thin:
// parse, call one domain operation, serialize.
import * as z from "zod";
import { AuthRefusal, requireApiUser, type SessionUser } from "@/lib/auth/require-user";
import { DomainError, type DomainErrorCode } from "@/lib/errors";
import { isDatabaseUnavailable } from "@/lib/http/json-response";
import { clientAddressOf, requestIdOf } from "@/lib/http/request-context";
import { errorFields, log } from "@/lib/log";
import { problemResponse } from "@/lib/http/problem-response";

export { problemResponse };

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

export type RouteContext<P> = { request: Request; user: SessionUser; params: P; clientAddress: string | null; requestId: string };

/** A dashboard API route: authenticated per the access policy, failures as problem+json. */
export function dashboardRoute<P = Record<string, never>>(handler: (ctx: RouteContext<P>) => Promise<Response>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const requestId = requestIdOf(request);
    const started = performance.now();
    let status = 500;
    try {
      const user = await requireApiUser(request);
      const params = await context.params;
      const response = await handler({ request, user, params, clientAddress: clientAddressOf(request), requestId });
      status = response.status;
      return response;
    } catch (err) {
      const response = errorToProblem(err, requestId);
      status = response.status;
      return response;
    } finally {
      log(status >= 500 ? "error" : "debug", "dashboard api", {
        requestId,
        route: `${request.method} ${new URL(request.url).pathname}`,
        status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  };
}

export function errorToProblem(err: unknown, requestId: string): Response {
  if (err instanceof AuthRefusal) {
    const headers: Record<string, string> = err.status === 401 ? { "www-authenticate": 'Session realm="dashboard"' } : {};
    return problemResponse(err.status, err.code, err.status === 401 ? "Sign-in required" : "Forbidden", err.message, {}, headers);
  }
  if (err instanceof ApiProblem) {
    const headers: Record<string, string> = err.status === 401 ? { "www-authenticate": 'Session realm="dashboard"' } : {};
    return problemResponse(err.status, err.code, err.title, err.message, err.extensions, headers);
  }
  if (err instanceof DomainError) {
    const { status, title } = DOMAIN_STATUS[err.code];
    return problemResponse(status, err.code, title, err.message, extensionsOf(err));
  }
  if (isDatabaseUnavailable(err)) {
    log("error", "database unavailable", { requestId, ...errorFields(err) });
    return problemResponse(503, "unavailable", "Service unavailable", `The database cannot be reached; try again shortly (request id ${requestId}).`, { requestId }, { "retry-after": "5" });
  }
  log("error", "unhandled error", { requestId, ...errorFields(err) });
  return problemResponse(500, "internal", "Internal error", `Something went wrong on our side; nothing was changed. Quote request id ${requestId} to support.`, { requestId });
}

/** The JSON body of a request, validated; a bad one is a 400 naming the fields. */
export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await request.text();
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiProblem(400, "invalid_json", "Invalid request", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
    throw new ApiProblem(400, "invalid_input", "Invalid request", fields.map((f) => `${f.field || "body"}: ${f.message}`).join("; "), { fields });
  }
  return parsed.data;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}
