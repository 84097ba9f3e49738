// A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it receives, for the
// alert email tests. It can be stopped and started again on the same port (an SMTP server that is down).
import { SMTPServer } from "smtp-server";
import { freePort } from "@/tests/support/server";

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string; at: number };

export type SmtpSink = {
  url: string;
  messages: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
};

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  // Unfold continuation lines first (RFC 5322 2.2.3).
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : "";
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8");
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              subject: headerOf(raw, "Subject"),
              at: Date.now(),
            });
            callback();
          });
        },
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await start();
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
