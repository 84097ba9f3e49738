"use server";
// The sign-in form's server action: next-auth's signIn with the Credentials provider. Success redirects
// (signIn throws Next's redirect, which must propagate); a refusal comes back as a message.
import { CredentialsSignin } from "next-auth";
import { signIn, SignInLocked, SignInSsoOnly } from "@/auth";
import { oidcSettings } from "@/lib/auth/sso/oidc-settings";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { SSO_ONLY_MESSAGE } from "./sso-messages";

export type SignInState = { error?: string; retryAt?: string; email?: string };

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (!email.trim() || !password) return { error: "Enter your email and password.", email };
  try {
    await signIn("credentials", { email, password, redirectTo: safeCallbackPath(form.get("callbackUrl")) });
  } catch (err) {
    if (err instanceof SignInLocked) {
      return { error: "Too many failed sign-ins.", retryAt: err.retryAt.toISOString(), email };
    }
    if (err instanceof SignInSsoOnly)
      return { error: SSO_ONLY_MESSAGE(oidcSettings()?.name ?? "single sign-on"), email };
    if (err instanceof CredentialsSignin) return { error: "Email or password is incorrect.", email };
    throw err;
  }
  return {};
}
