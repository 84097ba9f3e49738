// A partner's callback URL as an admin types it. The network-level (SSRF) checks happen where callbacks
// are sent; here only the form of the URL.
import { DomainError } from "@/lib/errors";

export function normalizeCallbackUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new DomainError("invalid_input", "callback URL must be an absolute http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new DomainError("invalid_input", "callback URL must use https (or http)");
  }
  if (url.username || url.password) {
    throw new DomainError("invalid_input", "callback URL must not contain credentials; use the outbound credential header");
  }
  if (url.hash) throw new DomainError("invalid_input", "callback URL must not contain a #fragment");
  return url.toString();
}
