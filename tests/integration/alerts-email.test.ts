// Alert emails before the sender's 4-hour window closes, end to end: two `npm run worker`
// processes scan the same database and send through nodemailer to a real SMTP server on 127.0.0.1. One
// message per threshold crossing per transfer, whatever the number of workers; no patient data in it; an
// SMTP server that is down is retried with backoff and shows in the admin overview meanwhile.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getAdminOverview } from "@/lib/admin/admin-overview";
import { getAlertSummary } from "@/lib/alerts/get-alert-summary";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { receiveTransfer } from "@/lib/transfers/intake";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest } from "@/tests/support/api";
import { createMigratedDatabase } from "@/tests/support/database";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startSmtpSink, type SmtpSink } from "@/tests/support/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "./callbacks-fixtures";

const RECIPIENTS = ["alerts@pharmacy.example", "lead.pharmacist@pharmacy.example"];
const DASHBOARD_URL = "https://rx.pharmacy.example";

connectTestEnvironment();
const authSecret = inject("authSecret");
let smtp: SmtpSink;
let workers: WorkerProcess[] = [];

async function receiveAged(minutesAgo: number): Promise<{ id: string; request: TransferRequest }> {
  const partner = await createTestPartner("Alert Sender");
  const request = freshRequest();
  const outcome = await receiveTransfer(partner.partnerId, request);
  if (outcome.kind !== "created") throw new Error(`transfer not created: ${outcome.kind}`);
  const id = outcome.response.metadata.referenceID;
  await age(id, minutesAgo);
  return { id, request };
}

const age = (id: string, minutesAgo: number) =>
  db().$executeRaw`UPDATE transfers SET received_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${id}`;

const alertRows = (id: string) =>
  db().transferAlert.findMany({
    where: { transferId: id },
    orderBy: { thresholdMinutes: "asc" },
    select: { thresholdMinutes: true, emailStatus: true },
  });

const mailsFor = (id: string) => smtp.messages.filter((m) => m.raw.includes(`/transfers/${id}`));

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_alerts");
  await installJobQueue(url);
  await disconnectDb();
  setEnv({ DATABASE_URL: url, SMTP_URL: "", ALERT_EMAILS: "" });
  smtp = await startSmtpSink();
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await smtp?.stop();
  await disconnectDb();
});

describe("alert emails from two workers", () => {
  let t130: { id: string; request: TransferRequest };
  let t200: { id: string; request: TransferRequest };
  let fresh: { id: string; request: TransferRequest };

  beforeAll(async () => {
    t130 = await receiveAged(130);
    t200 = await receiveAged(200);
    fresh = await receiveAged(10);
    const env = {
      SMTP_URL: smtp.url,
      ALERT_EMAILS: RECIPIENTS.join(","),
      ALERT_EMAIL_FROM: "Rx Transfer <rx@pharmacy.example>",
      DASHBOARD_URL,
      // The sink offers no STARTTLS (alert email requires TLS otherwise).
      SMTP_ALLOW_PLAINTEXT: "true",
      ALERT_SCAN_SECONDS: "0.3",
      WORKER_POLL_INTERVAL_MS: "100",
    };
    const databaseUrl = process.env.DATABASE_URL!;
    workers = await Promise.all([
      startWorkerProcess({ databaseUrl, authSecret, env }),
      startWorkerProcess({ databaseUrl, authSecret, env }),
    ]);
  }, 90_000);

  it("sends one message per crossing, to ALERT_EMAILS, with the count, the age and a link, and no patient data", async () => {
    await waitUntil("two alert emails", async () => smtp.messages.length >= 2 || null, 30_000);
    // Both workers scan every 0.3 s: give them many more chances to send a duplicate.
    await new Promise((r) => setTimeout(r, 3000));
    expect(mailsFor(t130.id)).toHaveLength(1);
    expect(mailsFor(t200.id)).toHaveLength(1);
    expect(mailsFor(fresh.id)).toHaveLength(0);
    expect(smtp.messages).toHaveLength(2);

    const [m130] = mailsFor(t130.id);
    const [m200] = mailsFor(t200.id);
    expect(m130!.to.sort()).toEqual([...RECIPIENTS].sort());
    expect(m130!.from).toBe("rx@pharmacy.example");
    // 2 pending past 2 h (t130 and t200); t200 crossed 2 h and 3 h at once: one message, for 3 h.
    expect(m130!.subject).toBe("Transfer waiting 2 h: 2 pending past 2 h");
    expect(m200!.subject).toBe("Transfer waiting 3 h: 1 pending past 3 h");
    expect(m130!.raw).toContain(`${DASHBOARD_URL}/transfers/${t130.id}`);
    expect(m130!.raw).toMatch(/has waited 2 h 1\d min/);
    expect(m200!.raw).toMatch(/has waited 3 h 2\d min/);
    for (const { raw } of smtp.messages) {
      for (const { request } of [t130, t200]) {
        const p = { ...request.patient.name, dateOfBirth: request.patient.dateOfBirth };
        for (const phi of [
          p.firstName,
          p.lastName,
          p.dateOfBirth,
          p.dateOfBirth.replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$2/$3/$1"),
          request.prescription.medicationName,
        ]) {
          expect(raw.toLowerCase()).not.toContain(phi.toLowerCase());
        }
      }
    }
    expect(await alertRows(t130.id)).toEqual([{ thresholdMinutes: 120, emailStatus: "SENT" }]);
    expect(await alertRows(t200.id)).toEqual([
      { thresholdMinutes: 120, emailStatus: "SKIPPED" },
      { thresholdMinutes: 180, emailStatus: "SENT" },
    ]);
  });

  it("sends the next crossing of the same transfer once more, and nothing again for the first", async () => {
    await age(t130.id, 185);
    await waitUntil("the 3-hour email", async () => mailsFor(t130.id).length >= 2 || null, 20_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(mailsFor(t130.id).map((m) => m.subject)).toEqual([
      "Transfer waiting 2 h: 2 pending past 2 h",
      "Transfer waiting 3 h: 2 pending past 3 h",
    ]);
  });

  it("the banner's summary counts the same transfers, oldest first, without patient data", async () => {
    const summary = await getAlertSummary();
    expect(summary).toMatchObject({
      count: 2,
      capped: false,
      oldest: { referenceID: t200.id, thresholdMinutes: 180, arrivedAfterHours: false },
    });
    expect(JSON.stringify(summary)).not.toContain(t200.request.patient.name.lastName);
  });

  it("retries while the SMTP server is down, shows it in the admin overview, and sends once it is back", async () => {
    await smtp.stop();
    await age(fresh.id, 125);
    const failing = await waitUntil(
      "a failed attempt recorded",
      async () => {
        const row = await db().transferAlert.findFirst({ where: { transferId: fresh.id, emailAttempts: { gt: 0 } } });
        return row ?? null;
      },
      20_000,
    );
    expect(failing.emailStatus).toBe("PENDING");
    expect(failing.lastError).toMatch(/ECONNREFUSED|connect/i);
    setEnv({ SMTP_URL: smtp.url, ALERT_EMAILS: RECIPIENTS.join(",") });
    const overview = await getAdminOverview();
    expect(overview.alertEmails).toMatchObject({ configured: true, failing: 1 });
    expect(overview.alertEmails.lastError).toMatch(/ECONNREFUSED|connect/i);

    await smtp.start();
    // graphile-worker's backoff: the next attempts come after about 2.7 s, 7.4 s, 20 s …
    await waitUntil("the email after the outage", async () => mailsFor(fresh.id).length >= 1 || null, 45_000, 250);
    const row = await db().transferAlert.findUniqueOrThrow({
      where: { transferId_thresholdMinutes: { transferId: fresh.id, thresholdMinutes: 120 } },
    });
    expect(row.emailStatus).toBe("SENT");
    expect(row.emailAttempts).toBeGreaterThanOrEqual(2);
    expect(mailsFor(fresh.id)).toHaveLength(1);
    expect((await getAdminOverview()).alertEmails.failing).toBe(0);
  }, 90_000);
});
