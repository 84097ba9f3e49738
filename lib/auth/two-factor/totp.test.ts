import { describe, expect, it } from "vitest";
import { checkTotpCode, createTotpSecret, timeStepAt, totpCodeAt, totpUri } from "@/lib/auth/two-factor/totp";

// RFC 6238 appendix B's SHA-1 key ("12345678901234567890") in base32, and its published 8-digit values
// cut to the last six digits (the same HOTP value, fewer digits).
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const T0 = Date.UTC(2026, 10, 23, 18, 0, 0); // on a step boundary (30 s)

describe("TOTP codes", () => {
  it("matches RFC 6238's test vectors (SHA-1, last six digits)", () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe("287082");
    expect(totpCodeAt(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totpCodeAt(RFC_SECRET, 1_234_567_890_000)).toBe("005924");
    expect(totpCodeAt(RFC_SECRET, 20_000_000_000_000)).toBe("353130");
  });

  it("makes 160-bit base32 secrets and an otpauth URI apps read", () => {
    const secret = createTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(createTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "pat@pharmacy.example"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("period")).toBe("30");
    expect(uri.searchParams.get("digits")).toBe("6");
  });

  it("accepts the current step and one either side, and says which step matched", () => {
    const now = T0 + 10_000;
    const step = timeStepAt(now);
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now), now, null)).toEqual({ ok: true, step });
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 30_000), now, null)).toEqual({
      ok: true,
      step: step - 1,
    });
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 30_000), now, null)).toEqual({
      ok: true,
      step: step + 1,
    });
  });

  it("tells an expired code (two steps old) from a clock off by more, and from a wrong code", () => {
    const now = T0 + 10_000;
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 60_000), now, null)).toMatchObject({
      ok: false,
      reason: "expired",
    });
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 60_000), now, null)).toEqual({
      ok: false,
      reason: "clock_skew",
      offsetSeconds: 60,
    });
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 180_000), now, null)).toEqual({
      ok: false,
      reason: "clock_skew",
      offsetSeconds: -180,
    });
    // Beyond five minutes it is just wrong.
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 600_000), now, null)).toEqual({
      ok: false,
      reason: "wrong",
    });
  });

  it("refuses a code of the step last used, or an earlier one (no replay inside the window)", () => {
    const now = T0 + 10_000;
    const code = totpCodeAt(RFC_SECRET, now);
    const first = checkTotpCode(RFC_SECRET, code, now, null);
    expect(first.ok).toBe(true);
    const step = first.ok ? first.step : 0;
    expect(checkTotpCode(RFC_SECRET, code, now + 25_000, step)).toMatchObject({ ok: false, reason: "replayed" });
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 30_000), now, step)).toMatchObject({
      ok: false,
      reason: "replayed",
    });
    // The next step's code is fine.
    expect(checkTotpCode(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 30_000), now + 30_000, step)).toEqual({
      ok: true,
      step: step + 1,
    });
  });

  it("takes spaces and dashes people type; anything but six digits is wrong, never an error", () => {
    const now = T0;
    const code = totpCodeAt(RFC_SECRET, now);
    expect(checkTotpCode(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now, null).ok).toBe(true);
    for (const bad of ["", "12345", "1234567", "abcdef", "１２３４５６", "\u0000", "9".repeat(10_000)]) {
      expect(checkTotpCode(RFC_SECRET, bad, now, null)).toEqual({ ok: false, reason: "wrong" });
    }
  });
});
