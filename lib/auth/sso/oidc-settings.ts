// The one OpenID Connect provider of single sign-on, as the environment configures it (README "Single
// sign-on"), or null when OIDC_ISSUER is unset.
import { env } from "@/lib/env";

export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** "Sign in with <name>". */
  name: string;
  roleClaim: string | null;
  autoCreate: "none" | "pharmacist";
};

/** next-auth's provider id: the callback URL is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

export function oidcSettings(): OidcSettings | null {
  const e = env();
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return null;
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME ?? new URL(e.OIDC_ISSUER).hostname,
    roleClaim: e.OIDC_ROLE_CLAIM ?? null,
    autoCreate: e.OIDC_AUTO_CREATE,
  };
}
