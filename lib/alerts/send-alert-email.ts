// Sends one claimed alert by email (nodemailer over SMTP_URL). A failure is recorded on the alert row (the
// admin overview shows it) and thrown, so that graphile-worker retries the job with its exponential backoff.
// The decision on a transfer never waits on this: it runs in the worker, after the fact.
import type { Transporter } from "nodemailer";
import { alertEmail } from "@/lib/alerts/alert-email";
import { createSmtpTransport } from "@/lib/alerts/smtp-transport";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

let transport: { url: string; plaintext: boolean; transporter: Transporter } | undefined;

/** The alert emails' transport (SMTP_URL), kept while the settings stay the same. */
export function alertMailer(): Transporter {
  const { SMTP_URL: url = "", SMTP_ALLOW_PLAINTEXT: plaintext } = env();
  if (transport?.url !== url || transport.plaintext !== plaintext)
    transport = { url, plaintext, transporter: createSmtpTransport({ url, allowPlaintext: plaintext }) };
  return transport.transporter;
}

export type SendAlertEmailOptions = { transferId: string; thresholdMinutes: number; now?: Date };

export type SendAlertEmailResult = "sent" | "not-pending" | "decided" | "not-configured";

export async function sendAlertEmail(opts: SendAlertEmailOptions): Promise<SendAlertEmailResult> {
  const settings = env();
  const key = { transferId_thresholdMinutes: { transferId: opts.transferId, thresholdMinutes: opts.thresholdMinutes } };
  const alert = await db().transferAlert.findUnique({ where: key });
  if (!alert || alert.emailStatus !== "PENDING") return "not-pending";
  const transfer = await db().transfer.findUnique({
    where: { id: opts.transferId },
    select: { status: true, receivedAt: true },
  });
  if (!transfer || transfer.status !== "RECEIVED") {
    // Decided before the email went out: nothing to page about.
    await db().transferAlert.update({ where: key, data: { emailStatus: "SKIPPED" } });
    return "decided";
  }
  if (!settings.SMTP_URL || settings.ALERT_EMAILS.length === 0) return "not-configured";
  const now = opts.now ?? new Date();
  const count = await db().transfer.count({
    where: { status: "RECEIVED", receivedAt: { lte: new Date(now.getTime() - opts.thresholdMinutes * 60_000) } },
  });
  const { subject, text } = alertEmail({
    count: Math.max(count, 1),
    thresholdMinutes: opts.thresholdMinutes,
    ageMinutes: Math.floor((now.getTime() - transfer.receivedAt.getTime()) / 60_000),
    link: `${settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`}/transfers/${encodeURIComponent(opts.transferId)}`,
  });
  try {
    await alertMailer().sendMail({
      from: settings.ALERT_EMAIL_FROM,
      to: settings.ALERT_EMAILS,
      subject,
      text,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db().transferAlert.update({
      where: key,
      data: { emailAttempts: { increment: 1 }, lastError: message.slice(0, 500), lastAttemptAt: new Date() },
    });
    throw err;
  }
  await db().transferAlert.update({
    where: key,
    data: {
      emailStatus: "SENT",
      emailAttempts: { increment: 1 },
      lastError: null,
      lastAttemptAt: new Date(),
      sentAt: new Date(),
    },
  });
  return "sent";
}
