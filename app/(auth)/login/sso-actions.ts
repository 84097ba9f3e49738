"use server";
// The "Sign in with <provider>" button's server action: next-auth's signIn with the OIDC provider, which
// runs discovery, sets the PKCE, state and nonce cookies and redirects to the provider (signIn throws
// Next's redirect, which must propagate). A provider that cannot be reached comes back as a message.
import { unstable_rethrow } from "next/navigation";
import { signIn } from "@/auth";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { markOidcIssuerUnavailable } from "@/lib/auth/sso/probe-oidc-issuer";
import { OIDC_PROVIDER_ID, oidcSettings } from "@/lib/auth/sso/oidc-settings";

export type SsoState = { error?: string };

export async function ssoSignInAction(_previous: SsoState, form: FormData): Promise<SsoState> {
  const sso = oidcSettings();
  if (!sso) return { error: "Single sign-on is not configured." };
  try {
    await signIn(OIDC_PROVIDER_ID, { redirectTo: safeCallbackPath(form.get("callbackUrl")) });
  } catch (err) {
    unstable_rethrow(err);
    markOidcIssuerUnavailable(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    return {
      error: `${sso.name} cannot be reached right now. Try again in a minute, or sign in with your password if you have one.`,
    };
  }
  return {};
}
