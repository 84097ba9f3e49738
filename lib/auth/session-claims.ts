// What a dashboard session carries (inside next-auth's encrypted JWT cookie) and the rules that end it:
// automatic logoff after SESSION_IDLE_MINUTES without activity, and SESSION_MAX_HOURS after sign-in
// whatever the activity. Shared by auth.ts (next-auth's jwt callback), proxy.ts (which records activity)
// and requireUser (which also checks the user row: exists, not disabled, same session version).
import * as z from "zod";
import { ROLES } from "@/lib/auth/access-policy";
import { env } from "@/lib/env";

export const SessionClaimsSchema = z.object({
  /** users.id */
  sub: z.string().min(1),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** users.session_version when the session was issued: a bump (disable, role change, password reset) ends it. */
  sv: z.number().int(),
  /** user_sessions.id: signing out deletes that row, so a copy of this cookie stops working (require-user.ts). */
  sid: z.string().min(1).max(64),
  /** Last activity, ms since the epoch. */
  act: z.number(),
  /** Signed in at, ms since the epoch. */
  sia: z.number(),
});
export type SessionClaims = z.infer<typeof SessionClaimsSchema>;

export type SessionEnd = "idle" | "expired";

export function sessionIdleMs(): number {
  return Math.round(env().SESSION_IDLE_MINUTES * 60_000);
}

export function sessionMaxMs(): number {
  return Math.round(env().SESSION_MAX_HOURS * 3_600_000);
}

/** null while the session is alive; otherwise why it ended. */
export function sessionEnded(claims: Pick<SessionClaims, "act" | "sia">, now = Date.now()): SessionEnd | null {
  if (now - claims.sia >= sessionMaxMs()) return "expired";
  if (now - claims.act >= sessionIdleMs()) return "idle";
  return null;
}

/**
 * How stale the recorded activity may get before a request that counts as activity rewrites the cookie:
 * small against the idle limit, so the server's idea of "last active" is never far behind the person's.
 */
export function activityResolutionMs(): number {
  return Math.min(15_000, Math.max(1_000, Math.floor(sessionIdleMs() / 8)));
}

/** The JWT and its cookie live as long as the idle limit: an idle browser drops the cookie on its own too. */
export function sessionCookieMaxAgeSeconds(): number {
  return Math.max(1, Math.ceil(sessionIdleMs() / 1000));
}

/** next-auth's session cookie names (the `__Secure-` one is used under HTTPS). */
export const SESSION_COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

/**
 * Requests a page's own timers make (queue refresh, claim renewal) carry this header: they are not a
 * person's activity, so they neither extend the session nor, on their own, keep it from idling out.
 */
export const BACKGROUND_HEADER = "x-rx-background";
