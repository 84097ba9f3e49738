// Per-request identity for logs and answers: the caller's X-Request-Id when it is sane, else a new one.
import { randomUUID } from "node:crypto";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: { headers: { get(name: string): string | null } }): string {
  const given = request.headers.get("x-request-id");
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function clientAddressOf(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-for");
  return forwarded?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || null;
}
