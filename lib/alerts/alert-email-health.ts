// For the admin overview: whether alert emails are configured and getting through (an SMTP server that is
// down shows here while the worker retries with backoff).
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

export type AlertEmailHealth = {
  configured: boolean;
  sentLast24h: number;
  /** Alerts whose email failed at least once and is still being retried. */
  failing: number;
  lastError: string | null;
  lastAttemptAt: string | null;
};

export async function getAlertEmailHealth(): Promise<AlertEmailHealth> {
  const settings = env();
  const since = new Date(Date.now() - 86_400_000);
  const [sentLast24h, failing, latest] = await Promise.all([
    db().transferAlert.count({ where: { emailStatus: "SENT", sentAt: { gt: since } } }),
    db().transferAlert.count({ where: { emailStatus: "PENDING", emailAttempts: { gt: 0 } } }),
    db().transferAlert.findFirst({
      where: { emailStatus: "PENDING", emailAttempts: { gt: 0 } },
      orderBy: { lastAttemptAt: "desc" },
      select: { lastError: true, lastAttemptAt: true },
    }),
  ]);
  return {
    configured: Boolean(settings.SMTP_URL && settings.ALERT_EMAILS.length > 0),
    sentLast24h,
    failing,
    lastError: latest?.lastError ?? null,
    lastAttemptAt: latest?.lastAttemptAt?.toISOString() ?? null,
  };
}
