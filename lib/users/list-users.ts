// Every dashboard user as the admin screen and the CLI list them, with their open sessions.
import { countLiveSessions } from "@/lib/auth/user-sessions";
import { db } from "@/lib/db/prisma";

export async function listUsers() {
  const [users, sessions] = await Promise.all([
    db().user.findMany({ orderBy: { createdAt: "asc" } }),
    countLiveSessions(),
  ]);
  return users.map((u) => ({
    userId: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    licenseNumber: u.licenseNumber,
    disabled: u.disabledAt !== null,
    lockedUntil: u.lockedUntil?.toISOString() ?? null,
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    /** Sessions not yet signed out nor past SESSION_MAX_HOURS (some may have idled out meanwhile). */
    openSessions: sessions.get(u.id) ?? 0,
    twoFactor: u.twoFactorEnabledAt !== null,
    createdAt: u.createdAt.toISOString(),
  }));
}
