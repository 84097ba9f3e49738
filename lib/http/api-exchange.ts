// The partner API's handlers speak this small request/answer shape instead of Web Request/Response, so one
// handler serves both Next's route handlers (through the Web adapters here) and the production server's
// direct intake route (lib/http/node-exchange.ts), which skips Next's per-request pipeline.
import { readBodyLimited, type BodyResult } from "@/lib/http/read-body";

export type ApiRequest = {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  headers: { get(name: string): string | null };
  readBody(limit: number): Promise<BodyResult>;
};

export type ApiAnswer = { status: number; headers: Record<string, string>; body: string };

/** Every JSON answer's headers (the /v1 API, the dashboard and integration APIs, health): never cached. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

/** The one JSON answer: the body serialized, JSON_HEADERS under the given ones. */
export function jsonAnswer(body: unknown, status = 200, headers?: Record<string, string>): ApiAnswer {
  return {
    status,
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

/** The same answer as a Web Response, for Next's route handlers. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return toWebResponse(jsonAnswer(body, status, headers));
}

export function fromWebRequest(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url: url.pathname + url.search,
    headers: request.headers,
    readBody: (limit) => readBodyLimited(request, limit),
  };
}

export function toWebResponse(answer: ApiAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
