// next-auth's own endpoints: CSRF token, credentials and single sign-on callbacks, sign-out, session.
// With PUBLIC_URL set they are served by Auth.js core (which next-auth wraps) with the request moved to
// PUBLIC_URL, rather than by next-auth's `handlers`: those rebuild the request as a NextRequest, whose URL
// Next rewrites from 127.0.0.1 or [::1] to `localhost`, so the SSO token request would name a redirect URI
// the provider never saw. (Server actions and session reads take PUBLIC_URL from AUTH_URL: scripts/serve.ts.)
import { Auth, setEnvDefaults } from "@auth/core";
import type { NextRequest } from "next/server";
import { authConfig, handlers } from "@/auth";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** The same request, addressed to PUBLIC_URL (a plain Request: its URL is kept as given). */
async function atPublicUrl(request: Request, publicUrl: string): Promise<Request> {
  const { pathname, search } = new URL(request.url);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(`${publicUrl}${pathname}${search}`, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  });
}

async function handle(request: NextRequest): Promise<Response> {
  const publicUrl = env().PUBLIC_URL;
  if (!publicUrl) return request.method === "POST" ? handlers.POST(request) : handlers.GET(request);
  // What next-auth's handler does before calling Auth.js: its base path, and the AUTH_* defaults.
  const config = { ...authConfig(request), basePath: "/api/auth" };
  setEnvDefaults({ AUTH_URL: publicUrl }, config, true);
  return Auth(await atPublicUrl(request, publicUrl), config);
}

export { handle as GET, handle as POST };
