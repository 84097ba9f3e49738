// Per-request identity for logs and answers: the caller's X-Request-Id when it is sane, else a new one.
import { randomUUID } from "node:crypto";
import { clientAddressFromHeaders } from "@/lib/http/client-address";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: { headers: { get(name: string): string | null } }): string {
  const given = request.headers.get("x-request-id");
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The client's address as our server resolved it from the socket and TRUSTED_PROXIES
 * (lib/http/client-address.ts); never X-Forwarded-For itself, which the client writes.
 */
export function clientAddressOf(request: { headers: { get(name: string): string | null } }): string | null {
  return clientAddressFromHeaders(request.headers);
}
