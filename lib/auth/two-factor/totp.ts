// TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, what every authenticator app reads) through the
// `otpauth` library. A code is accepted for the current step and one step either side; the step it
// matched is returned so the caller can refuse it (and every earlier one) next time: no replay. Codes
// further off are still recognised (up to SKEW_SEARCH_STEPS) only to tell "expired" and "your phone's
// clock is off" apart from "wrong": they are refused all the same.
import * as OTPAuth from "otpauth";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Accepted: the current step and one either side. */
export const TOTP_ACCEPT_STEPS = 1;
/** How far (in steps, ±5 minutes) a code is looked for to explain a refusal. */
export const SKEW_SEARCH_STEPS = 10;
const ISSUER = "Rx Transfer";

export type TotpCheck =
  | { ok: true; step: number }
  | { ok: false; reason: "wrong" }
  | { ok: false; reason: "replayed"; step: number }
  | { ok: false; reason: "expired"; step: number }
  /** A code of a step more than one away, the other side of "expired": the phone's clock is off by about `offsetSeconds` (+ ahead). */
  | { ok: false; reason: "clock_skew"; offsetSeconds: number };

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as authenticator apps take it. */
export function createTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, account = "") {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI the QR code carries. */
export function totpUri(secretBase32: string, account: string): string {
  return totpFor(secretBase32, account).toString();
}

/** The code of `timestampMs` (tests, and nothing else: the server never shows a code). */
export function totpCodeAt(secretBase32: string, timestampMs: number): string {
  return totpFor(secretBase32).generate({ timestamp: timestampMs });
}

export function timeStepAt(timestampMs: number): number {
  return Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** Only six digits (spaces and dashes people type are dropped first); anything else is simply wrong. */
export function normalizeTotpCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/**
 * Checks `code` at `nowMs`. `lastStep` is the last step accepted for this user: a code of that step or
 * an earlier one is a replay (the window of an accepted code overlaps the next one's).
 */
export function checkTotpCode(secretBase32: string, input: string, nowMs: number, lastStep: number | null): TotpCheck {
  const code = normalizeTotpCode(input);
  if (!code) return { ok: false, reason: "wrong" };
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: nowMs, window: SKEW_SEARCH_STEPS });
  if (delta === null) return { ok: false, reason: "wrong" };
  const step = timeStepAt(nowMs) + delta;
  if (Math.abs(delta) <= TOTP_ACCEPT_STEPS) {
    if (lastStep !== null && step <= lastStep) return { ok: false, reason: "replayed", step };
    return { ok: true, step };
  }
  if (lastStep !== null && step <= lastStep) return { ok: false, reason: "replayed", step };
  if (delta === -(TOTP_ACCEPT_STEPS + 1)) return { ok: false, reason: "expired", step };
  return { ok: false, reason: "clock_skew", offsetSeconds: delta * TOTP_PERIOD_SECONDS };
}
