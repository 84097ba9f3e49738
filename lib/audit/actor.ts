// Who performs an audited operation: a signed-in user, the command line, the service itself, or a caller
// with no account (a refused sign-in, an integration key). The audit module writes an Actor's three fields
// to the record's user_id, actor and client_address (auditRecordRow, lib/audit/record-audit-event.ts);
// these constructors are the only places that fill them, so no caller maps them by hand.
export type Actor = { userId: string | null; label: string; clientAddress?: string | null };

export const CLI_ACTOR: Actor = { userId: null, label: "cli", clientAddress: null };

/** The service itself (demo seed, tests, start-up tasks). */
export const SYSTEM_ACTOR: Actor = { userId: null, label: "system", clientAddress: null };

/** A signed-in user: their id, and their email as people read it, from where they acted. */
export function userActor(user: { id: string; email: string }, clientAddress: string | null | undefined): Actor {
  return { userId: user.id, label: user.email, clientAddress: clientAddress ?? null };
}

/** The actor an admin's request acts as: the route's signed-in user and the request's address. */
export function adminActor(ctx: { user: { id: string; email: string }; clientAddress: string | null }): Actor {
  return userActor(ctx.user, ctx.clientAddress);
}

/** An actor with no user account behind it, named by `label` (e.g. "unknown", "oidc", `integration:<key>`). */
export function namedActor(label: string, clientAddress: string | null = null): Actor {
  return { userId: null, label, clientAddress };
}
