// The Actor an admin's request acts as, for the audit record: who (the user id and email, as people read
// it) and from where (the client address).
import type { Actor } from "@/lib/audit/actor";

export function adminActor(ctx: { user: { id: string; email: string }; clientAddress: string | null }): Actor {
  return { userId: ctx.user.id, label: ctx.user.email, clientAddress: ctx.clientAddress };
}
