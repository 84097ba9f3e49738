// Sends one claimed alert by email (nodemailer over SMTP_URL). A failure is recorded on the alert row (the
// admin overview shows it) and thrown, so that graphile-worker retries the job with its exponential backoff.
// The decision on a transfer never waits on this: it runs in the worker, after the fact.
import nodemailer, { type Transporter } from "nodemailer";
import { alertEmail } from "@/lib/alerts/alert-email";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

/**
 * SMTP_URL's server and login. Parsed here rather than handed to nodemailer as `url`, whose query options
 * would override the TLS requirement below (the schema refuses a query anyway).
 */
function smtpConnection(url: string): {
  host: string;
  port?: number;
  secure: boolean;
  auth?: { user: string; pass: string };
} {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : undefined,
    secure: parsed.protocol === "smtps:",
    auth: user ? { user, pass: decodeURIComponent(parsed.password) } : undefined,
  };
}

let transport: { url: string; plaintext: boolean; transporter: Transporter } | undefined;

function mailer(url: string, plaintext: boolean): Transporter {
  if (transport?.url !== url || transport.plaintext !== plaintext) {
    transport = {
      url,
      plaintext,
      // smtps:// is TLS from the first byte; smtp:// must upgrade with STARTTLS before anything (the login
      // included) is sent, unless SMTP_ALLOW_PLAINTEXT names a relay that has no TLS.
      transporter: nodemailer.createTransport({
        ...smtpConnection(url),
        requireTLS: !plaintext && !url.startsWith("smtps:"),
        ignoreTLS: false,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    };
  }
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
    await mailer(settings.SMTP_URL, settings.SMTP_ALLOW_PLAINTEXT).sendMail({
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
