// The admin overview: what needs attention (partners whose callbacks are failing, keys about to expire,
// locked accounts) and how much there is of everything, read in a handful of small queries.
import { getAlertEmailHealth, type AlertEmailHealth } from "@/lib/alerts/alert-email-health";
import { partnerCallbackHealth } from "@/lib/callbacks/callback-health";
import { db } from "@/lib/db/prisma";
import { DEMO_PHARMACY, env } from "@/lib/env";

export type AdminOverview = {
  partners: {
    total: number;
    suspended: number;
    flagged: { partnerId: string; name: string; state: "failing" | "gone"; since: string | null }[];
  };
  apiKeys: { active: number; expiringWithin7d: number };
  users: { active: number; admins: number; disabled: number; locked: number };
  stores: number;
  /** The stores this service receives transfers for (PHARMACY_NPI first), at most RECEIVING_STORES_SHOWN. */
  receivingStores: { npi: string; name: string; configured: boolean; demo: boolean }[];
  transfersLast24h: number;
  audit: { lastId: string | null; lastAt: string | null };
  alertEmails: AlertEmailHealth;
};

export const RECEIVING_STORES_SHOWN = 10;

export async function getAdminOverview(): Promise<AdminOverview> {
  const now = new Date();
  const in7d = new Date(now.getTime() + 7 * 86_400_000);
  const partners = await db().partner.findMany({
    select: { id: true, name: true, suspendedAt: true, callbackFailingSince: true, callbackGoneAt: true },
  });
  const flagged = partners
    .map((p) => ({ p, health: partnerCallbackHealth(p, now) }))
    .filter(({ p, health }) => health.isFlagged && !p.suspendedAt)
    .map(({ p, health }) => ({
      partnerId: p.id,
      name: p.name,
      state: health.state as "failing" | "gone",
      since: health.since?.toISOString() ?? null,
    }));
  const activeKeyWhere = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const configuredNpi = env().PHARMACY_NPI;
  const [activeKeys, expiring, users, stores, transfersLast24h, last, alertEmails, configured, others] =
    await Promise.all([
      db().apiKey.count({ where: activeKeyWhere }),
      db().apiKey.count({ where: { revokedAt: null, expiresAt: { gt: now, lte: in7d } } }),
      db().user.findMany({ select: { role: true, disabledAt: true, lockedUntil: true } }),
      db().store.count(),
      db().transfer.count({ where: { receivedAt: { gt: new Date(now.getTime() - 86_400_000) } } }),
      db().auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true, at: true } }),
      getAlertEmailHealth(),
      db().store.findUnique({ where: { npi: configuredNpi }, select: { npi: true, name: true } }),
      db().store.findMany({
        where: { npi: { not: configuredNpi } },
        select: { npi: true, name: true },
        orderBy: { name: "asc" },
        take: RECEIVING_STORES_SHOWN,
      }),
    ]);
  const receivingStores = [...(configured ? [configured] : []), ...others]
    .slice(0, RECEIVING_STORES_SHOWN)
    .map((s) => ({ ...s, configured: s.npi === configuredNpi, demo: s.npi === DEMO_PHARMACY.npi }));
  return {
    partners: { total: partners.length, suspended: partners.filter((p) => p.suspendedAt).length, flagged },
    apiKeys: { active: activeKeys, expiringWithin7d: expiring },
    users: {
      active: users.filter((u) => !u.disabledAt).length,
      admins: users.filter((u) => !u.disabledAt && u.role === "admin").length,
      disabled: users.filter((u) => u.disabledAt).length,
      locked: users.filter((u) => !u.disabledAt && u.lockedUntil && u.lockedUntil > now).length,
    },
    stores,
    receivingStores,
    transfersLast24h,
    audit: { lastId: last?.id.toString() ?? null, lastAt: last?.at.toISOString() ?? null },
    alertEmails,
  };
}
