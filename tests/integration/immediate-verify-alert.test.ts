// The alert for a transfer CONFIRMED automatically that no pharmacist verified within its store's limit: the
// limit counts the store's opening hours (a fixed clock walks a Friday afternoon into Monday morning), the
// alert is raised once per transfer with its audit event and a queued email job, and the email reaches a real
// SMTP server on 127.0.0.1 through the pending alerts' transport, without patient data.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { claimOverdueVerifications } from "@/lib/immediate-confirm/claim-overdue-verifications";
import { sendVerifyOverdueEmail } from "@/lib/immediate-confirm/send-verify-overdue-email";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { addStore } from "@/lib/stores/add-store";
import { computeNpiCheckDigit } from "@/lib/interface";
import { receiveTransfer } from "@/lib/transfers/intake";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, freshRequest, uniqueLetters } from "@/tests/support/api";
import { createMigratedDatabase } from "@/tests/support/database";
import { createTestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startSmtpSink, type SmtpSink } from "@/tests/support/smtp-sink";

const RECIPIENTS = ["alerts@pharmacy.example", "pic@pharmacy.example"];
const PUBLIC_URL = "https://rx.pharmacy.example";
const NPI = `198765432${computeNpiCheckDigit("198765432")}`;
// Open Monday to Friday 09:00-17:00 in Chicago (CST, UTC-6, in November).
const WEEKDAYS_9_TO_5 = [null, ...Array.from({ length: 5 }, () => ({ open: "09:00", close: "17:00" })), null];
const FRIDAY_1500 = new Date("2026-11-20T21:00:00Z");

connectTestEnvironment();
let smtp: SmtpSink;
let partnerId: string;

async function confirmAt(confirmedAt: Date): Promise<{ id: string; request: TransferRequest }> {
  const request = freshRequest((r) => {
    r.receivingPharmacy.npi = NPI;
    r.patient.name.lastName = `Alert${uniqueLetters()}`;
    r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
  });
  const outcome = await receiveTransfer(partnerId, request);
  if (outcome.kind !== "created") throw new Error(`transfer not created: ${outcome.kind}`);
  expect(outcome.response.metadata.responseType).toBe("CONFIRMED");
  const id = outcome.response.metadata.referenceID;
  await db().immediateConfirmation.update({ where: { transferId: id }, data: { confirmedAt } });
  return { id, request };
}

const jobsFor = (id: string) =>
  db().$queryRaw<{ task_identifier: string }[]>`
    SELECT task_identifier FROM graphile_worker.jobs WHERE key = ${`verify-overdue:${id}`}`;

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_verify_alert");
  await installJobQueue(url);
  await disconnectDb();
  setEnv({ DATABASE_URL: url, SMTP_URL: "", ALERT_EMAILS: "" });
  smtp = await startSmtpSink();
  const pharmacist = await createTestUser("pharmacist", "Dana Cole, PharmD");
  partnerId = (await createTestPartner("Verify Alert Sender")).partnerId;
  const store = await addStore({ name: "Weekday Store", npi: NPI, dea: null, actor: CLI_ACTOR });
  await db().store.update({
    where: { id: store.storeId },
    data: { openingHours: WEEKDAYS_9_TO_5, timeZone: "America/Chicago" },
  });
  await setImmediateConfirmPolicy({
    storeRef: store.storeId,
    change: { enabled: true, ownerUserId: pharmacist.id, state: "TX", boardRule: "22 TAC 291.34(g)" },
    actor: CLI_ACTOR,
  });
}, 60_000);

afterAll(async () => {
  await smtp?.stop();
  await disconnectDb();
});

describe("not verified within the store's limit, counted during opening hours", () => {
  let late: { id: string; request: TransferRequest };
  let verified: { id: string; request: TransferRequest };

  beforeAll(async () => {
    late = await confirmAt(FRIDAY_1500);
    verified = await confirmAt(FRIDAY_1500);
    await db().immediateConfirmation.update({
      where: { transferId: verified.id },
      data: { verifiedAt: new Date("2026-11-20T22:00:00Z"), verifiedByName: "Dana Cole, PharmD" },
    });
  });

  it("is not due on Friday evening (4.5 wall-clock hours, 2 open ones) nor Monday 10:59; due at 11:01, once", async () => {
    expect(await claimOverdueVerifications({ now: new Date("2026-11-21T01:30:00Z") })).toEqual([]);
    expect(await claimOverdueVerifications({ now: new Date("2026-11-23T16:59:00Z") })).toEqual([]);
    const monday1101 = new Date("2026-11-23T17:01:00Z");
    expect(await claimOverdueVerifications({ now: monday1101 })).toEqual([late.id]);
    expect(await claimOverdueVerifications({ now: monday1101 })).toEqual([]);
    expect(await claimOverdueVerifications({ now: new Date("2026-11-30T17:00:00Z") })).toEqual([]);

    const audit = await db().auditEvent.findMany({
      where: { action: "transfer.immediate_verify_overdue", transferId: late.id },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ transferId: late.id, verifyWithinHours: 4 });
    expect(await jobsFor(late.id)).toEqual([{ task_identifier: "send-verify-overdue-email" }]);
    expect(await jobsFor(verified.id)).toEqual([]);
  });

  it("emails ALERT_EMAILS through SMTP with the limit and links, without patient data; never for a verified one", async () => {
    expect(await sendVerifyOverdueEmail({ transferId: late.id })).toBe("not-configured");
    setEnv({
      SMTP_URL: smtp.url,
      ALERT_EMAILS: RECIPIENTS.join(","),
      ALERT_EMAIL_FROM: "Rx Transfer <rx@pharmacy.example>",
      PUBLIC_URL,
      SMTP_ALLOW_PLAINTEXT: "true",
    });
    expect(await sendVerifyOverdueEmail({ transferId: late.id })).toBe("sent");
    expect(await sendVerifyOverdueEmail({ transferId: verified.id })).toBe("verified");
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail!.to.sort()).toEqual([...RECIPIENTS].sort());
    expect(mail!.subject).toBe("Confirmed automatically, not verified within 4 h: 1 to verify");
    expect(mail!.raw).toContain(`${PUBLIC_URL}/transfers/${late.id}`);
    expect(mail!.raw).toContain(`${PUBLIC_URL}/transfers/to-verify`);
    expect(mail!.raw).toMatch(/counted during opening hours/);
    const p = late.request.patient;
    for (const phi of [p.name.firstName, p.name.lastName, p.dateOfBirth, late.request.prescription.medicationName]) {
      expect(mail!.raw.toLowerCase()).not.toContain(phi.toLowerCase());
    }
  });

  it("an SMTP server that is down fails the job (graphile-worker retries it)", async () => {
    await smtp.stop();
    await expect(sendVerifyOverdueEmail({ transferId: late.id })).rejects.toThrow(/ECONNREFUSED|connect/i);
    await smtp.start();
  });
});
