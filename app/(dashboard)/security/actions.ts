"use server";
// The Security page's server actions: start an enrolment (new secret, QR code) and confirm it with one code;
// with two-factor on, new recovery codes or turning it off, each after a current code.
import { redirect } from "next/navigation";
import { loginUrl, requireSessionAllowingSecondFactor } from "@/lib/auth/require-user";
import { actionClientAddress } from "@/lib/auth/two-factor/action-context";
import { enrolmentRefusalMessage, secondFactorMessage } from "@/lib/auth/two-factor/code-messages";
import { disableOwnTwoFactor } from "@/lib/auth/two-factor/disable-own-two-factor";
import { regenerateRecoveryCodes } from "@/lib/auth/two-factor/regenerate-recovery-codes";
import type { SecondFactorRefusal } from "@/lib/auth/two-factor/verify-second-factor";
import {
  confirmTwoFactorEnrolment,
  startTwoFactorEnrolment,
  type EnrolmentStart,
} from "@/lib/auth/two-factor/enrol-two-factor";
import { DomainError } from "@/lib/errors";

async function sessionForEnrolment() {
  const session = await requireSessionAllowingSecondFactor();
  // A session owing its code must give it first: enrolment is not a way around the second step.
  if (!session || session.secondFactor === "verify") redirect(loginUrl("/security"));
  return session;
}

export async function startEnrolmentAction(): Promise<
  { ok: true; start: EnrolmentStart } | { ok: false; error: string }
> {
  const session = await sessionForEnrolment();
  try {
    return { ok: true, start: await startTwoFactorEnrolment(session.user.id) };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err.message };
    throw err;
  }
}

export async function confirmEnrolmentAction(
  code: unknown,
): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; error: string }> {
  const session = await sessionForEnrolment();
  if (typeof code !== "string" || !code.trim())
    return { ok: false, error: "Enter the 6-digit code your authenticator app shows." };
  const outcome = await confirmTwoFactorEnrolment({
    userId: session.user.id,
    sessionId: session.sessionId,
    code,
    clientAddress: await actionClientAddress(),
  });
  return outcome.ok ? outcome : { ok: false, error: enrolmentRefusalMessage(outcome.refusal) };
}

export type OwnTwoFactorState = { error?: string; done?: boolean; recoveryCodes?: string[] };

function ownChangeError(
  outcome: { reason: string } & Partial<{ retryAt: Date | null; offsetSeconds: number }>,
): string {
  if (outcome.reason === "required") return "Your role requires two-factor sign-in: it cannot be turned off.";
  if (outcome.reason === "not_enabled") return "Two-factor sign-in is not on.";
  const message = secondFactorMessage(outcome as SecondFactorRefusal);
  return outcome.reason === "locked" && outcome.retryAt
    ? `${message} Try again after ${outcome.retryAt.toISOString().slice(11, 19)} UTC.`
    : message;
}

/** A complete session only (second factor done): these change the factor itself. */
async function completeSession() {
  const session = await requireSessionAllowingSecondFactor();
  if (!session || session.secondFactor) redirect(loginUrl("/security"));
  return session;
}

export async function disableTwoFactorAction(_previous: OwnTwoFactorState, form: FormData): Promise<OwnTwoFactorState> {
  const session = await completeSession();
  const outcome = await disableOwnTwoFactor({
    userId: session.user.id,
    role: session.user.role,
    sessionId: session.sessionId,
    code: form.get("code"),
    clientAddress: await actionClientAddress(),
  });
  return outcome.ok ? { done: true } : { error: ownChangeError(outcome) };
}

export async function regenerateRecoveryCodesAction(
  _previous: OwnTwoFactorState,
  form: FormData,
): Promise<OwnTwoFactorState> {
  const session = await completeSession();
  const outcome = await regenerateRecoveryCodes({
    userId: session.user.id,
    sessionId: session.sessionId,
    code: form.get("code"),
    clientAddress: await actionClientAddress(),
  });
  return outcome.ok ? { done: true, recoveryCodes: outcome.value } : { error: ownChangeError(outcome) };
}
