// SSO_ONLY=true: password sign-in is refused on the server (the sign-in action and next-auth's own
// credentials endpoint both come through auth.ts's authorize) for everyone but the break-glass admins:
// an email listed in SSO_BREAK_GLASS_EMAILS whose user has the admin role. Checked before the password,
// so a refused attempt neither counts towards a lockout nor tells anything about the password. Audited
// like any refused sign-in (a typed email that names no user only as its HMAC).
import { emailDigest, UNKNOWN_ACTOR } from "@/lib/auth/attempt-sign-in";
import { namedActor, userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { textProblem } from "@/lib/text-safety";

export type PasswordSignInAllowedOptions = { email: unknown; clientAddress: string | null };

export async function passwordSignInAllowed({
  email: typed,
  clientAddress,
}: PasswordSignInAllowedOptions): Promise<boolean> {
  const e = env();
  if (!e.SSO_ONLY) return true;
  const email = typeof typed === "string" ? typed.trim().toLowerCase() : "";
  const usable = email.length > 0 && email.length <= 254 && !textProblem(email);
  const user = usable
    ? await db().user.findUnique({ where: { email }, select: { id: true, email: true, role: true } })
    : null;
  if (user && user.role === "admin" && e.SSO_BREAK_GLASS_EMAILS.includes(user.email)) return true;
  const details = { method: "password", reason: "sso_only" };
  await recordAuditEvent(
    user
      ? { actor: userActor(user, clientAddress), action: "auth.sign_in_refused", details }
      : {
          actor: namedActor(UNKNOWN_ACTOR, clientAddress),
          action: "auth.sign_in_refused",
          details: { ...details, emailHmac: usable ? emailDigest(email) : null },
        },
  );
  return false;
}
