// Alert email never sends the SMTP login (or the message) in clear by default: against a real SMTP server
// (smtp-server) on 127.0.0.1 that offers no STARTTLS, an smtp:// URL with a login is refused before AUTH;
// SMTP_ALLOW_PLAINTEXT=true (a local relay) sends. The production path's own transport (lib/alerts).
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpTransport } from "@/lib/alerts/smtp-transport";
import { freePort } from "@/tests/support/server";

let server: SMTPServer;
let url: string;
const logins: { user: string | undefined; pass: string | undefined }[] = [];
const received: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  server = new SMTPServer({
    // No STARTTLS offered, plain-text AUTH allowed: what a careless or hostile server looks like.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? undefined, pass: auth.password ?? undefined });
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  url = `smtp://alerts%40pharmacy.example:s3cret-pass@127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const message = (subject: string) => ({
  from: "rx@pharmacy.example",
  to: "alerts@pharmacy.example",
  subject,
  text: "test",
});

describe("alert email over SMTP", () => {
  it("refuses a server without STARTTLS: the password is never sent, nor the message", async () => {
    const transport = createSmtpTransport({ url, allowPlaintext: false });
    await expect(transport.sendMail(message("refused"))).rejects.toThrow(/STARTTLS/i);
    transport.close();
    expect(logins).toEqual([]);
    expect(received).toEqual([]);
  });

  it("sends in clear only with SMTP_ALLOW_PLAINTEXT", async () => {
    const transport = createSmtpTransport({ url, allowPlaintext: true });
    await transport.sendMail(message("sent in clear"));
    transport.close();
    expect(logins).toEqual([{ user: "alerts@pharmacy.example", pass: "s3cret-pass" }]);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain("Subject: sent in clear");
  });
});
