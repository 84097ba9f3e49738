// Dashboard sessions on the server (user_sessions): a row per sign-in, named by the `sid` claim of the
// session cookie and checked by requireUser on every request. Signing out deletes that one row (other
// computers stay signed in); "sign out all my sessions" and an admin's "end this user's sessions" delete
// all of a user's rows. Each end is audited in the same transaction. The session_version bump (disable,
// role change, password reset) still ends every session too, without touching these rows.
import type { Prisma } from "@/generated/prisma/client";
import { userActor, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { sessionMaxMs } from "@/lib/auth/session-claims";
import { PENDING_SIGN_IN_MS, type SecondFactorDue } from "@/lib/auth/two-factor/policy";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";

type Tx = Prisma.TransactionClient;

/**
 * A new session row for a sign-in; expired rows of anyone are pruned on the way (an indexed delete). A
 * session that still owes its second factor (`verify`, `enrol`) lasts PENDING_SIGN_IN_MS until it is done.
 */
export async function createUserSession(
  tx: Tx,
  userId: string,
  clientAddress: string | null,
  now = new Date(),
  secondFactor: SecondFactorDue = null,
): Promise<string> {
  await tx.userSession.deleteMany({ where: { expiresAt: { lte: now } } });
  const id = newId("ses");
  const lifetime = secondFactor ? Math.min(PENDING_SIGN_IN_MS, sessionMaxMs()) : sessionMaxMs();
  await tx.userSession.create({
    data: { id, userId, clientAddress, expiresAt: new Date(now.getTime() + lifetime), createdAt: now, secondFactor },
  });
  return id;
}

/** The user signing out of this one session (idempotent: an already-ended session is fine). */
export async function endUserSession(input: {
  sessionId: string;
  user: { id: string; email: string };
  action: string;
  clientAddress: string | null;
}): Promise<void> {
  await db().$transaction(async (tx) => {
    await tx.userSession.deleteMany({ where: { id: input.sessionId, userId: input.user.id } });
    await recordAuditEvent(
      {
        actor: userActor(input.user, input.clientAddress),
        action: input.action,
        details: { sessionId: input.sessionId },
      },
      tx,
    );
  });
}

/** Without an audit record: next-auth's own sign-out endpoint (events.signOut), a backstop to the route above. */
export async function forgetUserSession(sessionId: string): Promise<void> {
  await db().userSession.deleteMany({ where: { id: sessionId } });
}

/**
 * Ends every session of `userId`: the user themself ("sign out all my sessions") or an admin ("end this
 * user's sessions"). Returns how many live sessions ended.
 */
export async function endAllUserSessions(
  userId: string,
  actor: Actor,
  by: "self" | "admin",
): Promise<{ userId: string; sessionsEnded: number }> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new DomainError("not_found", `no user ${userId}`);
    const count = await tx.userSession.count({ where: { userId, expiresAt: { gt: new Date() } } });
    await tx.userSession.deleteMany({ where: { userId } });
    await recordAuditEvent(
      {
        actor,
        action: by === "self" ? "auth.signed_out_everywhere" : "user.sessions_ended",
        details: { userId, sessionsEnded: count },
      },
      tx,
    );
    return { userId, sessionsEnded: count };
  });
}

/** Live sessions per user, for the admin users screen. */
export async function countLiveSessions(): Promise<Map<string, number>> {
  const rows = await db().userSession.groupBy({
    by: ["userId"],
    where: { expiresAt: { gt: new Date() } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.userId, r._count._all]));
}
