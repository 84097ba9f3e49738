// The origin this service is reached at, for every absolute URL it writes (redirects, OAuth discovery's
// issuer): a trusted proxy's X-Forwarded-Host/-Proto first (lib/http/client-address.ts hands them on only
// from a trusted peer), then PUBLIC_URL, then the Host the request came with. Never Next's own request URL,
// which says http://localhost:PORT whatever the client opened.
import { env } from "@/lib/env";
import { FORWARDED_ORIGIN_HEADER } from "@/lib/http/client-address";
import { isHttps } from "@/lib/http/security-headers";

export function publicOrigin(request: { headers: Headers; url: string }): string {
  const forwarded = request.headers.get(FORWARDED_ORIGIN_HEADER);
  if (forwarded) return forwarded;
  const configured = env().PUBLIC_URL;
  if (configured) return configured;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return `${isHttps(request) ? "https" : "http"}://${host}`;
}
