"use server";
// The Security page's server actions: start an enrolment (new secret, QR code) and confirm it with one code.
import { redirect } from "next/navigation";
import { loginUrl, requireSessionAllowingSecondFactor } from "@/lib/auth/require-user";
import { actionClientAddress } from "@/lib/auth/two-factor/action-context";
import { enrolmentRefusalMessage } from "@/lib/auth/two-factor/code-messages";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment, type EnrolmentStart } from "@/lib/auth/two-factor/enrol-two-factor";
import { DomainError } from "@/lib/errors";

async function sessionForEnrolment() {
  const session = await requireSessionAllowingSecondFactor();
  // A session owing its code must give it first: enrolment is not a way around the second step.
  if (!session || session.secondFactor === "verify") redirect(loginUrl("/security"));
  return session;
}

export async function startEnrolmentAction(): Promise<{ ok: true; start: EnrolmentStart } | { ok: false; error: string }> {
  const session = await sessionForEnrolment();
  try {
    return { ok: true, start: await startTwoFactorEnrolment(session.user.id) };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err.message };
    throw err;
  }
}

export async function confirmEnrolmentAction(code: unknown): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; error: string }> {
  const session = await sessionForEnrolment();
  if (typeof code !== "string" || !code.trim()) return { ok: false, error: "Enter the 6-digit code your authenticator app shows." };
  const outcome = await confirmTwoFactorEnrolment({ userId: session.user.id, sessionId: session.sessionId, code, clientAddress: await actionClientAddress() });
  return outcome.ok ? outcome : { ok: false, error: enrolmentRefusalMessage(outcome.refusal) };
}
