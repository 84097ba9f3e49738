// One clear message per refusal of a two-factor code, shared by the sign-in step and enrolment.
import type { SecondFactorRefusal } from "@/lib/auth/two-factor/verify-second-factor";

function minutes(seconds: number): string {
  const m = Math.round(Math.abs(seconds) / 60);
  return m <= 1 ? "about a minute" : `about ${m} minutes`;
}

export function secondFactorMessage(refusal: SecondFactorRefusal): string {
  switch (refusal.reason) {
    case "wrong":
      return "That code is not right. Enter the 6-digit code your authenticator app shows now, or one of your recovery codes.";
    case "expired":
      return "That code has expired. Enter the code your authenticator app shows now.";
    case "replayed":
      return "That code has already been used. Wait for your app to show the next code (at most 30 seconds) and enter it.";
    case "clock_skew":
      return `That code is for a time ${minutes(refusal.offsetSeconds)} ${refusal.offsetSeconds > 0 ? "ahead of" : "behind"} this server's clock, more than the 30 seconds allowed. Set your phone's date and time to automatic, then enter the new code.`;
    case "recovery_used":
      return "That recovery code is not valid: it is wrong or has already been used. Each recovery code works once.";
    case "locked":
      return "Too many failed attempts.";
    case "expired_sign_in":
      return "This sign-in took too long. Sign in again with your password.";
  }
}

/** The same refusals while confirming an enrolment (no recovery codes yet, no lockout). */
export function enrolmentRefusalMessage(
  refusal:
    { reason: "wrong" | "expired" | "replayed" | "not_started" } | { reason: "clock_skew"; offsetSeconds: number },
): string {
  switch (refusal.reason) {
    case "not_started":
      return "This set-up is no longer current (it was finished or restarted elsewhere). Reload the page and start again.";
    case "wrong":
      return "That code is not right. Check that you scanned the code shown here, and enter the 6 digits your app shows now.";
    case "clock_skew":
      return secondFactorMessage(refusal);
    default:
      return secondFactorMessage({ reason: refusal.reason });
  }
}
