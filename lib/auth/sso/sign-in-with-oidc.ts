// A sign-in the OIDC provider vouched for (next-auth has checked state, PKCE, nonce and the ID token's
// signature, issuer and audience): link it to a user by verified email, or create one when
// OIDC_AUTO_CREATE says so, map the role claim, and open a session exactly as a password sign-in does
// (user_sessions row, audit record with `method: "oidc"`). The provider enforces its own MFA, so no
// second factor is owed here. A disabled user stays refused, whatever the provider says.
import type { Role } from "@/lib/auth/access-policy";
import type { SignedInUser } from "@/lib/auth/attempt-sign-in";
import { emailDigest, UNKNOWN_ACTOR } from "@/lib/auth/attempt-sign-in";
import { createUserSession } from "@/lib/auth/user-sessions";
import { namedActor, userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import type { UserRole } from "@/generated/prisma/client";
import { newId } from "@/lib/ids";
import { textProblem } from "@/lib/text-safety";
import { roleFromClaim } from "./oidc-role";
import { oidcSettings } from "./oidc-settings";

export type OidcRefusal = "not_configured" | "email_unverified" | "unknown_user" | "disabled" | "role_claim";

export type OidcSignInOutcome = { ok: true; user: SignedInUser } | { ok: false; reason: OidcRefusal };

/** What a user created by single sign-on has for a password: no password verifies against it. */
export const NO_PASSWORD_HASH = "sso-only";

export type SignInWithOidcOptions = { claims: Record<string, unknown>; clientAddress: string | null };

export async function signInWithOidc({ claims, clientAddress }: SignInWithOidcOptions): Promise<OidcSignInOutcome> {
  const settings = oidcSettings();
  if (!settings) return { ok: false, reason: "not_configured" };
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const subject = typeof claims.sub === "string" ? claims.sub.slice(0, 255) : null;
  const method = { method: "oidc", issuer: settings.issuer, subject };
  // Some providers send the boolean as a string.
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const user = email && !textProblem(email) ? await db().user.findUnique({ where: { email } }) : null;
  const refuse = async (reason: OidcRefusal): Promise<OidcSignInOutcome> => {
    await recordAuditEvent(
      user
        ? {
            actor: userActor(user, clientAddress),
            action: "auth.sign_in_refused",
            details: { ...method, reason },
          }
        : {
            actor: namedActor(UNKNOWN_ACTOR, clientAddress),
            action: "auth.sign_in_refused",
            details: { ...method, reason, emailHmac: email ? emailDigest(email) : null },
          },
    );
    return { ok: false, reason };
  };

  if (!email || !verified || textProblem(email)) return refuse("email_unverified");
  if (user?.disabledAt) return refuse("disabled");
  let role: Role | null = null;
  if (settings.roleClaim) {
    role = roleFromClaim(claims[settings.roleClaim]);
    if (!role) return refuse("role_claim");
  }
  if (!user && settings.autoCreate !== "pharmacist") return refuse("unknown_user");

  const name =
    typeof claims.name === "string" && claims.name.trim() && !textProblem(claims.name)
      ? claims.name.trim().slice(0, 200)
      : email.split("@")[0]!;
  return db().$transaction(async (tx) => {
    const now = new Date();
    let row = user;
    if (!row) {
      row = await tx.user.create({
        data: {
          id: newId("usr"),
          email,
          name,
          passwordHash: NO_PASSWORD_HASH,
          role: (role ?? "pharmacist") as UserRole,
        },
      });
      await recordAuditEvent(
        {
          actor: namedActor("oidc", clientAddress),
          action: "user.created",
          details: { userId: row.id, role: row.role, ...method },
        },
        tx,
      );
    } else if (role && role !== row.role) {
      // As an admin's role change: the version bump ends the user's other sessions.
      row = await tx.user.update({
        where: { id: row.id },
        data: { role: role as UserRole, sessionVersion: { increment: 1 } },
      });
      await recordAuditEvent(
        {
          actor: namedActor("oidc", clientAddress),
          action: "user.role_changed",
          details: { userId: row.id, from: user!.role, to: role, ...method },
        },
        tx,
      );
    }
    await tx.user.update({ where: { id: row.id }, data: { lastLoginAt: now } });
    const sessionId = await createUserSession(tx, row.id, clientAddress, now, null);
    await recordAuditEvent(
      { actor: userActor(row, clientAddress), action: "auth.signed_in", details: { sessionId, ...method } },
      tx,
    );
    return {
      ok: true as const,
      user: {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        sessionVersion: row.sessionVersion,
        sessionId,
      },
    };
  });
}
