// A signed-in user re-enters a current authenticator code before changing their own two-factor (turning it
// off, new recovery codes). Counted on the same account counter and lockout as sign-in (a session left
// open must not give unlimited guesses), and the accepted step is stored, so a code works once. `then`
// runs in the transaction that accepts the code, so the change and its audit commit with it.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { reserveAccountAttempt } from "@/lib/auth/attempt-sign-in";
import { checkTotpCode } from "@/lib/auth/two-factor/totp";
import type { SecondFactorRefusal } from "@/lib/auth/two-factor/verify-second-factor";
import { openSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { acceptTotpStep } from "@/lib/auth/sql";

type Tx = Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0];
export type OwnUser = { id: string; email: string };
export type ConfirmedChange<T> =
  { ok: true; value: T } | ({ ok: false } & (SecondFactorRefusal | { reason: "not_enabled" }));

export type ConfirmCurrentCodeOptions<T> = {
  userId: string;
  code: unknown;
  clientAddress: string | null;
  step: string;
  then: (tx: Tx, user: OwnUser) => Promise<T>;
  now?: number;
};

export async function confirmCurrentCode<T>({
  userId,
  code,
  clientAddress,
  step,
  then,
  now = Date.now(),
}: ConfirmCurrentCodeOptions<T>): Promise<ConfirmedChange<T>> {
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user?.twoFactorSecret || !user.twoFactorEnabledAt) return { ok: false, reason: "not_enabled" };
  const reserved = await reserveAccountAttempt(user.id);
  if (!reserved.ok) return { ok: false, reason: "locked", retryAt: reserved.until };
  const typed = typeof code === "string" ? code.slice(0, 64) : "";
  const last = user.twoFactorLastStep === null ? null : Number(user.twoFactorLastStep);
  const check = checkTotpCode(openSecret(user.twoFactorSecret, secretOwner.totpSecret(user.id)), typed, now, last);
  const done = check.ok
    ? await db().$transaction(async (tx) => {
        const rows = await inPrismaTx(tx, acceptTotpStep(user.id, check.step, { clearLockout: true }));
        return rows.length === 0 ? null : { value: await then(tx, { id: user.id, email: user.email }) };
      })
    : null;
  if (done) return { ok: true, value: done.value };
  const refusal: SecondFactorRefusal = check.ok
    ? { reason: "replayed" }
    : check.reason === "clock_skew"
      ? { reason: "clock_skew", offsetSeconds: check.offsetSeconds }
      : { reason: check.reason };
  await recordAuditEvent({
    actor: userActor(user, clientAddress),
    action: "auth.second_factor_failed",
    details: { step, reason: refusal.reason, failures: reserved.failures },
  });
  if (reserved.lockedUntil) return { ok: false, reason: "locked", retryAt: reserved.lockedUntil };
  return { ok: false, ...refusal };
}
