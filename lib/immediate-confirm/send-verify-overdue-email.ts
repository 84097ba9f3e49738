// Sends the "not verified in time" alert for one transfer CONFIRMED automatically (claimed by
// claim-overdue-verifications.ts) to ALERT_EMAILS over SMTP_URL, through the pending alerts' transport. A
// failure is thrown so that graphile-worker retries the job with its backoff; a transfer verified meanwhile is
// not mailed about. No PHI in the message: the limit, the count, links.
import { formatMinutes } from "@/lib/alerts/alert-email";
import { alertMailer } from "@/lib/alerts/send-alert-email";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

export type SendVerifyOverdueEmailResult = "sent" | "verified" | "not-found" | "not-configured";

export function verifyOverdueEmail(facts: {
  hours: number;
  count: number;
  confirmedAt: Date;
  link: string;
  listLink: string;
}): { subject: string; text: string } {
  const limit = formatMinutes(facts.hours * 60);
  return {
    subject: `Confirmed automatically, not verified within ${limit}: ${facts.count} to verify`,
    text: [
      `A transfer confirmed automatically under your store's policy at ${facts.confirmedAt.toISOString()} has not been received and verified by a pharmacist within the store's limit of ${limit} (counted during opening hours).`,
      "It is not released to the dispensing system until a pharmacist verifies it.",
      `${facts.count} automatically confirmed transfer${facts.count === 1 ? " is" : "s are"} waiting to be verified now.`,
      "",
      `Open it: ${facts.link}`,
      `To verify: ${facts.listLink}`,
      "",
      "This message carries no patient information; sign in to see the transfer.",
    ].join("\n"),
  };
}

export async function sendVerifyOverdueEmail(opts: { transferId: string }): Promise<SendVerifyOverdueEmailResult> {
  const settings = env();
  const record = await db().immediateConfirmation.findUnique({ where: { transferId: opts.transferId } });
  if (!record) return "not-found";
  if (record.verifiedAt) return "verified";
  if (!settings.SMTP_URL || settings.ALERT_EMAILS.length === 0) return "not-configured";
  const [policy, count] = await Promise.all([
    db().immediateConfirmPolicy.findUnique({ where: { storeId: record.storeId }, select: { verifyWithinHours: true } }),
    db().immediateConfirmation.count({ where: { verifiedAt: null } }),
  ]);
  const base = settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`;
  const { subject, text } = verifyOverdueEmail({
    hours: policy?.verifyWithinHours ?? 4,
    count: Math.max(count, 1),
    confirmedAt: record.confirmedAt,
    link: `${base}/transfers/${encodeURIComponent(opts.transferId)}`,
    listLink: `${base}/transfers/to-verify`,
  });
  await alertMailer().sendMail({ from: settings.ALERT_EMAIL_FROM, to: settings.ALERT_EMAILS, subject, text });
  return "sent";
}
