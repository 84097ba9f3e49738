// MFA_REQUIRED (admins | all | none): who must have two-factor. What a session still owes after the
// password: nothing, the code of an enrolled user (`verify`), or an enrolment the policy requires
// (`enrol`). Demo users of `npm run dev` are exempt, and only in development.
import type { Role } from "@/lib/auth/access-policy";
import { env } from "@/lib/env";

export type SecondFactorDue = "verify" | "enrol" | null;
export const SECOND_FACTOR_STATES = ["verify", "enrol"] as const;

export function isTwoFactorRequired(role: Role, policy = env().MFA_REQUIRED): boolean {
  return policy === "all" || (policy === "admins" && role === "admin");
}

export function secondFactorDue(user: {
  role: Role;
  twoFactorEnabledAt: Date | null;
  twoFactorExempt: boolean;
}): SecondFactorDue {
  if (user.twoFactorEnabledAt) return "verify";
  const exempt = user.twoFactorExempt && env().NODE_ENV === "development";
  return !exempt && isTwoFactorRequired(user.role) ? "enrol" : null;
}

/** A pending sign-in (password right, second step not done) lasts this long. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;
