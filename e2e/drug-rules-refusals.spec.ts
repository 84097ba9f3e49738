// What cannot be approved because of the drug, as a pharmacist meets it in Chromium: oxycodone shows C-II and
// is refused (a prefilled rejection is offered instead); alprazolam written 200 days ago is void; a Schedule
// III-V first fill (tramadol) is refused like C-II; and the six months end at the store's midnight.
import { expect, test } from "./fixtures";
import {
  createPharmacist,
  createSender,
  queueName,
  sendTransfer,
  signIn,
  transferRequest,
  transferStatus,
} from "./dashboard-helpers";
import { DAY_MS, drug, isoDaysAgo, isoDaysAhead, sendPrescription } from "./support/drug-prescriptions";
import { formatLocal } from "../components/ui/local-time";
import { db } from "../lib/db/prisma";
import { legalExpiry } from "../lib/drugs";
import { calendarDayIn } from "../lib/interface";

test("oxycodone shows C-II in the queue and the review, cannot be approved, and is rejected with a prefilled description", async ({
  page,
  request,
}) => {
  const { pharmacist, partner, transfer, referenceID } = await sendPrescription(request, "Ellis Grant, PharmD", (r) => {
    drug(r, "Oxycodone Hydrochloride", "5 mg");
    r.prescription.refillsAuthorized = 1;
    r.prescription.refillsRemaining = 0;
    r.prescription.firstFilledDate = null;
    r.prescription.lastFilledDate = null;
  });
  await signIn(page, pharmacist);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(row).toContainText("C-II");
  await expect(row).toContainText("oxycodone");

  await row.getByRole("link", { name: queueName(transfer) }).click();
  await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}$`));
  await expect(page.getByRole("region", { name: "Prescription" })).toContainText("C-II");
  await expect(page.getByText(/Cannot be approved: Schedule II cannot be transferred here/)).toBeVisible();

  // The server refuses it whatever the screen does: 422 problem+json naming the rule.
  const direct = await page.request.post(`/api/transfers/${referenceID}/approve`, { data: {} });
  expect(direct.status()).toBe(422);
  expect(await direct.json()).toMatchObject({ rule: "schedule-ii", reason: "rule" });

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const refused = page.getByRole("dialog", { name: "This transfer cannot be approved" });
  await expect(refused).toContainText("NCPDP SCRIPT 2022011");
  await expect(refused.getByRole("button", { name: /Confirm approval/ })).toHaveCount(0);
  await refused.getByRole("button", { name: /Reject with OTHER instead/ }).click();
  const reject = page.getByRole("dialog", { name: "Reject transfer" });
  await expect(reject.getByLabel("Error type")).toHaveValue("OTHER");
  await expect(reject.getByLabel("Description")).toHaveValue(/Schedule II controlled substance/);
  await reject.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();
  const outcome = await transferStatus(request, partner, referenceID);
  expect(outcome.error?.type).toBe("OTHER");
  expect(outcome.error?.description).toContain("Schedule II");
});

test("alprazolam written 200 days ago cannot be approved: a Schedule IV prescription is void after 6 months", async ({
  page,
  request,
}) => {
  const { pharmacist, partner, referenceID } = await sendPrescription(request, "Dana Whit, RPh", (r) => {
    drug(r, "Alprazolam", "0.5 mg");
    r.prescription.writtenDate = isoDaysAgo(200);
    r.prescription.firstFilledDate = isoDaysAgo(199);
    r.prescription.lastFilledDate = isoDaysAgo(20);
    r.prescription.expirationDate = isoDaysAhead(165);
    r.prescription.refillsAuthorized = 6;
    r.prescription.refillsRemaining = 3;
  });
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await expect(page.getByRole("region", { name: "Prescription" })).toContainText("C-IV");
  const checks = page.getByRole("region", { name: /Automated checks/ });
  await expect(checks).toContainText(/void 6 months after it was written/);
  await page.keyboard.press("a");
  const refused = page.getByRole("dialog", { name: "This transfer cannot be approved" });
  await expect(refused).toContainText("Schedule IV prescription older than 6 months");
  await expect(refused).toContainText("21 CFR 1306.22");
  await expect(refused.getByRole("button", { name: /Reject with RX_EXPIRED instead/ })).toBeFocused();

  const direct = await page.request.post(`/api/transfers/${referenceID}/approve`, {
    data: { oneTimeTransferConfirmed: true },
  });
  expect(direct.status()).toBe(422);
  const problem = (await direct.json()) as { rule: string; detail: string; reject: { errorType: string } };
  expect(problem).toMatchObject({ rule: "controlled-six-months", reject: { errorType: "RX_EXPIRED" } });
  expect(problem.detail).toMatch(/200 days ago/);
  expect((await transferStatus(request, partner, referenceID)).metadata.responseType).toBe("RECEIVED");
});

test("tramadol never filled: flagged in the queue, refused like C-II (1306.25(a)), and rejected with a prefilled description", async ({
  page,
  request,
}) => {
  const { pharmacist, partner, transfer, referenceID } = await sendPrescription(request, "Kim Alvarez, PharmD", (r) => {
    drug(r, "Tramadol Hydrochloride", "50 mg");
    r.prescription.writtenDate = isoDaysAgo(3);
    r.prescription.firstFilledDate = null;
    r.prescription.lastFilledDate = null;
    r.prescription.refillsAuthorized = 3;
    r.prescription.refillsRemaining = 2;
  });
  await signIn(page, pharmacist);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(row).toContainText("C-IV");
  await expect(row).toContainText("Schedule IV first fill cannot be transferred here");
  await row.getByRole("link", { name: queueName(transfer) }).click();
  await expect(page.getByRole("region", { name: /Automated checks/ })).toContainText(
    "only for refill dispensing (21 CFR 1306.25(a))",
  );

  await page.keyboard.press("a");
  const refused = page.getByRole("dialog", { name: "This transfer cannot be approved" });
  await expect(refused).toContainText("Schedule IV first fill cannot be transferred here");
  await expect(refused).toContainText("1306.08(e)-(g)");
  await expect(refused.getByRole("checkbox")).toHaveCount(0);
  await refused.getByRole("button", { name: /Reject with OTHER instead/ }).click();
  const reject = page.getByRole("dialog", { name: "Reject transfer" });
  await expect(reject.getByLabel("Description")).toHaveValue(
    /^prescription\.firstFilledDate: Tramadol is a Schedule IV/,
  );
  await reject.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();
  const outcome = await transferStatus(request, partner, referenceID);
  expect(outcome.error?.type).toBe("OTHER");
  expect(outcome.error?.description).toContain("refill dispensing (21 CFR 1306.25(a))");
});

test("the six months end at the store's midnight, not UTC's (a lorazepam written six months ago)", async ({
  page,
  request,
}) => {
  // A store zone whose day differs from UTC's now, well away from its midnight; the written date whose six
  // months end on the day that decides (as in tests/integration/drug-rules-refills-zone.test.ts).
  const now = Date.now();
  const utc = calendarDayIn(now, "UTC");
  let chosen: { zone: string; written: string; lawfulHere: boolean } | null = null;
  for (const { zone, ahead } of [
    { zone: "Pacific/Kiritimati", ahead: true },
    { zone: "Pacific/Pago_Pago", ahead: false },
  ]) {
    const day = calendarDayIn(now, zone);
    const margin = 20 * 60_000;
    if (day === utc || calendarDayIn(now - margin, zone) !== day || calendarDayIn(now + margin, zone) !== day) continue;
    for (let back = 175; back <= 190 && !chosen; back++) {
      const written = calendarDayIn(now - back * DAY_MS, "UTC");
      if (
        legalExpiry({ writtenDate: written, schedule: "IV", nonControlledMonths: 12 }).toISOString().slice(0, 10) ===
        (ahead ? utc : day)
      )
        chosen = { zone, written: `${written}T12:00:00Z`, lawfulHere: !ahead };
    }
    if (chosen) break;
  }
  expect(chosen, "a zone away from midnight with an exact six-month date").not.toBeNull();
  const { zone, written, lawfulHere } = chosen!;

  const pharmacist = await createPharmacist("Ari Quinn, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Lorazepam", "1 mg");
    r.prescription.writtenDate = written;
    r.prescription.firstFilledDate = isoDaysAgo(20);
    r.prescription.lastFilledDate = isoDaysAgo(10);
    r.prescription.expirationDate = isoDaysAhead(60);
    r.prescription.refillsAuthorized = 3;
    r.prescription.refillsRemaining = 1;
  });
  const store = await db().store.findUniqueOrThrow({ where: { npi: transfer.receivingPharmacy.npi } });
  const referenceID = await sendTransfer(request, partner, transfer);
  try {
    await db().store.update({ where: { id: store.id }, data: { timeZone: zone } });
    await signIn(page, pharmacist, `/transfers/${referenceID}`);
    // The sender's 4-hour window ends at a time said in the store's clock, not the reader's.
    const { receivedAt } = await db().transfer.findUniqueOrThrow({ where: { id: referenceID } });
    const windowEnd = new Date(receivedAt.getTime() + 4 * 3_600_000).toISOString();
    await expect(page.getByText(`(it ends ${formatLocal(windowEnd, "time", zone)} store time)`)).toBeVisible();
    await page.keyboard.press("a");
    if (lawfulHere) {
      await expect(page.getByRole("dialog", { name: "Approve transfer" })).toBeVisible();
    } else {
      await expect(page.getByRole("dialog", { name: "This transfer cannot be approved" })).toContainText(
        "Schedule IV prescription older than 6 months",
      );
    }
  } finally {
    await db().store.update({ where: { id: store.id }, data: { timeZone: store.timeZone } });
  }
});
