// Who performs an admin operation, for the audit record: a signed-in user, or the command line.
export type Actor = { userId: string | null; label: string; clientAddress?: string | null };

export const CLI_ACTOR: Actor = { userId: null, label: "cli", clientAddress: null };

/** The service itself (demo seed, tests, start-up tasks). */
export const SYSTEM_ACTOR: Actor = { userId: null, label: "system", clientAddress: null };

/** The actor an admin's request acts as: who (the user id and email, as people read it) and from where. */
export function adminActor(ctx: { user: { id: string; email: string }; clientAddress: string | null }): Actor {
  return { userId: ctx.user.id, label: ctx.user.email, clientAddress: ctx.clientAddress };
}
