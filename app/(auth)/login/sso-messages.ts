// What the sign-in page says when single sign-on came back refused (lib/auth/sso/sign-in-with-oidc.ts's
// reasons, in the `sso` parameter) or failed next-auth's checks (its `error` parameter).
import type { OidcRefusal } from "@/lib/auth/sso/sign-in-with-oidc";

const REFUSALS: Record<OidcRefusal, (name: string) => string> = {
  unknown_user: (name) =>
    `Your ${name} account is not a user of this service. Ask an admin to add you with the same email address.`,
  email_unverified: (name) =>
    `${name} did not confirm that your email address is verified, so it cannot be linked to a user here.`,
  disabled: () => "This account is disabled. Ask an admin if you need access.",
  role_claim: (name) =>
    `${name} gave your account no role this service knows (admin or pharmacist). Ask your identity administrator.`,
  not_configured: () => "Single sign-on is not configured.",
};

export function ssoRefusalMessage(reason: string | undefined, name: string): string | null {
  if (!reason) return null;
  const message = Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason as OidcRefusal] : null;
  return message ? message(name) : null;
}

/** next-auth's error page parameter after a failed OAuth callback (a tampered or stale state or nonce, a provider error). */
export function ssoErrorMessage(error: string | undefined, name: string): string | null {
  if (!error || error === "CredentialsSignin") return null;
  return `Single sign-on with ${name} did not complete: its answer could not be verified. Start again.`;
}

export const SSO_ONLY_MESSAGE = (name: string) => `Password sign-in is turned off here. Sign in with ${name}.`;
