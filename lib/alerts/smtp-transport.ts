// The SMTP connection for alert emails. TLS is required: smtps:// is TLS from the first byte, and smtp://
// must upgrade with STARTTLS before anything is sent (the login included), or the message is not sent at
// all. Only SMTP_ALLOW_PLAINTEXT=true (a relay on this host or network without TLS) lets it go in clear.
// SMTP_URL is parsed here rather than handed to nodemailer as `url`, whose query options would override the
// TLS requirement (lib/env-schema.ts refuses a query anyway).
import nodemailer, { type Transporter } from "nodemailer";

export type SmtpTransportOptions = { url: string; allowPlaintext: boolean };

export function createSmtpTransport(opts: SmtpTransportOptions): Transporter {
  const parsed = new URL(opts.url);
  const user = decodeURIComponent(parsed.username);
  const secure = parsed.protocol === "smtps:";
  return nodemailer.createTransport({
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : undefined,
    secure,
    auth: user ? { user, pass: decodeURIComponent(parsed.password) } : undefined,
    requireTLS: !secure && !opts.allowPlaintext,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
