// What the drug itself means, as a pharmacist meets it in Chromium: oxycodone shows C-II and cannot
// be approved (a prefilled rejection is offered instead); alprazolam written 200 days ago cannot be approved;
// amoxicillin for a patient allergic to penicillin is a red warning, repeated in the approve dialog, and can
// still be approved; and the printable record carries every legal element on one US Letter page. Second round:
// a Schedule III-V first fill (tramadol) is refused like C-II; clonazepam's refills are the lawful number on the
// screen and the record; NKDA reads as no known allergies; the screen speaks a pharmacist's words, says each fact
// once, and counts problems as the queue does; the six months end at the store's midnight.
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
import { formatLocal } from "../components/ui/local-time";
import { db } from "../lib/db/prisma";
import { legalExpiry, NDC_NOT_CHECKED } from "../lib/drugs";
import { calendarDayIn } from "../lib/interface";
import type { TransferRequest } from "../lib/interface";

const DAY_MS = 86_400_000;
const isoDaysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");

function drug(r: TransferRequest, name: string, strength: string, form = "Tablet"): void {
  r.prescription.medicationName = name;
  r.prescription.drugStrength = strength;
  r.prescription.drugForm = form;
}

test("oxycodone shows C-II in the queue and the review, cannot be approved, and is rejected with a prefilled description", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Ellis Grant, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Oxycodone Hydrochloride", "5 mg");
    r.prescription.refillsAuthorized = 1;
    r.prescription.refillsRemaining = 0;
    r.prescription.firstFilledDate = null;
    r.prescription.lastFilledDate = null;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
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
  const pharmacist = await createPharmacist("Dana Whit, RPh");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Alprazolam", "0.5 mg");
    r.prescription.writtenDate = isoDaysAgo(200);
    r.prescription.firstFilledDate = isoDaysAgo(199);
    r.prescription.lastFilledDate = isoDaysAgo(20);
    r.prescription.expirationDate = new Date(Date.now() + 165 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
    r.prescription.refillsAuthorized = 6;
    r.prescription.refillsRemaining = 3;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
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

test("amoxicillin for a patient allergic to penicillin: a red warning in the banner and the dialog, and it can be approved", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Sam Ortiz, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Amoxicillin", "500 mg", "Capsule");
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
    r.prescription.quantityWritten = 30;
    r.prescription.quantityDispensed = 30;
    r.prescription.daysSupply = 10;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(row).toContainText("Allergy conflict");
  await expect(row).not.toContainText("C-");
  await row.getByRole("link", { name: queueName(transfer) }).click();

  const banner = page.getByRole("region", { name: "Allergies" });
  await expect(banner.getByRole("list", { name: "Allergy warnings" })).toContainText(
    "Amoxicillin is a penicillin; the patient is allergic to Penicillin",
  );
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog.getByRole("list", { name: "Allergy warnings for this drug" })).toContainText(
    "Amoxicillin is a penicillin; the patient is allergic to Penicillin",
  );
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  expect((await transferStatus(request, partner, referenceID)).metadata.responseType).toBe("CONFIRMED");

  await page.goto(`/transfers/${referenceID}/record`);
  await expect(
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Allergy warnings shown" }) }),
  ).toContainText("Amoxicillin is a penicillin");
});

test("zolpidem needs the one-time-transfer confirmation; the record shows every legal element and prints on one Letter page", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Jordan Pike, PharmD");
  await db().user.update({ where: { email: pharmacist.email }, data: { licenseNumber: "RPH-04-1187" } });
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Zolpidem Tartrate", "10 mg");
    r.prescription.writtenDate = isoDaysAgo(40);
    r.prescription.firstFilledDate = isoDaysAgo(39);
    r.prescription.lastFilledDate = isoDaysAgo(9);
    r.prescription.expirationDate = new Date(Date.now() + 130 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
    r.prescription.refillsAuthorized = 3;
    r.prescription.refillsRemaining = 1;
    r.prescription.quantityWritten = 30;
    r.prescription.quantityDispensed = 30;
    r.prescription.daysSupply = 30;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await expect(page.getByRole("region", { name: "Prescription" })).toContainText("C-IV");

  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog.getByLabel("Drug schedule")).toHaveValue("CIV");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("not been transferred before");
  await dialog.getByRole("checkbox", { name: /not been transferred before/ }).check();
  await dialog.getByLabel(/Local Rx number/).fill("L-77310");
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();

  await page.goto(`/transfers/${referenceID}/record`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("TRANSFER");
  const rowOf = (label: string, scope = page.locator("article")) =>
    scope.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  const rx = transfer.prescription;
  const expected: [string, string | RegExp][] = [
    ["Patient", transfer.patient.name.lastName],
    ["Patient address", transfer.patient.address.addressLine1],
    ["Prescriber", transfer.prescriber.name.lastName],
    ["Prescriber address", transfer.prescriber.address.addressLine1],
    ["Prescriber DEA", transfer.prescriber.dea!],
    ["Drug", "Zolpidem Tartrate"],
    ["Strength", "10 mg"],
    ["Quantity", "30 tablets written; 30 tablets per fill"],
    ["Directions", rx.sig],
    ["Date of original issue", rx.writtenDate.slice(0, 10)],
    ["Original refills authorized (after the first fill, as DEA counts)", "2"],
    ["Total fills authorized (including the first)", "3"],
    ["Date of original dispensing", rx.firstFilledDate!.slice(0, 10)],
    ["Valid refills remaining (lawful number)", "1"],
    ["Refills remaining as sent by the transferring pharmacy", "1 (the same)"],
    ["Earlier fills (dates and place)", transfer.sendingPharmacy.name],
    ["Phone", transfer.sendingPharmacy.contactInfo!.phoneNumber.slice(0, 3)],
    ["Prescription (Rx) number", rx.rxNumber],
    ["Transferring pharmacist", transfer.sendingPharmacy.pharmacist.lastName],
    ["Receiving pharmacist", pharmacist.name],
    ["Pharmacist licence number", "RPH-04-1187"],
    ["Local Rx number", "L-77310"],
    ["Drug schedule", "Schedule IV"],
    ["How the schedule was determined", "detected: zolpidem, C-IV"],
    ["One-time transfer (1306.25(a))", "not transferred before"],
    ["Date and time of transfer", new Date().toISOString().slice(0, 4)],
    ["Legal expiry", /\d{4}-\d{2}-\d{2}/],
  ];
  for (const [label, text] of expected) await expect(rowOf(label), label).toContainText(text);
  const transferring = page.getByRole("region", { name: "Transferring pharmacy" });
  await expect(rowOf("DEA", transferring)).toContainText(transfer.sendingPharmacy.dea!);
  await expect(rowOf("Address", transferring)).toContainText(transfer.sendingPharmacy.address.addressLine1);

  // Chromium's print to PDF, US Letter: one page.
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "Letter", printBackground: false });
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length).toBe(1);
});

test("tramadol never filled: flagged in the queue, refused like C-II (1306.25(a)), and rejected with a prefilled description", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Kim Alvarez, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Tramadol Hydrochloride", "50 mg");
    r.prescription.writtenDate = isoDaysAgo(3);
    r.prescription.firstFilledDate = null;
    r.prescription.lastFilledDate = null;
    r.prescription.refillsAuthorized = 3;
    r.prescription.refillsRemaining = 2;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
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

test("clonazepam written with 11 refills: the screen, the dialog and the record state the lawful 4, the sender's 10 beside it", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Lee Carver, RPh");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Clonazepam", "0.5 mg");
    r.prescription.writtenDate = isoDaysAgo(40);
    r.prescription.firstFilledDate = isoDaysAgo(39);
    r.prescription.lastFilledDate = isoDaysAgo(9);
    r.prescription.expirationDate = new Date(Date.now() + 130 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
    r.prescription.refillsAuthorized = 12;
    r.prescription.refillsRemaining = 10;
  });
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  const prescription = page.getByRole("region", { name: "Prescription" });
  await expect(prescription).toContainText("4 lawfully (the sender says 10; federal law allows no more)");
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog).toContainText("federal law allows 5; 1 used, 4 lawfully remain");
  await dialog.getByRole("checkbox", { name: /not been transferred before/ }).check();
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();

  await page.goto(`/transfers/${referenceID}/record`);
  const rowOf = (label: string) =>
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  await expect(rowOf("Valid refills remaining (lawful number)")).toContainText("4");
  await expect(rowOf("Refills remaining as sent by the transferring pharmacy")).toContainText(
    "10 (more than federal law allows: not valid)",
  );
});

test("NKDA reads as no known allergies; the screen speaks a pharmacist's words and says each fact once", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Noor Haddad, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => {
    drug(r, "Atorvastatin Calcium", "20 mg");
    r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA"] };
    // A sender's date later than the legal expiry: one expiry line, the stricter date deciding.
    r.prescription.writtenDate = isoDaysAgo(40);
    r.prescription.firstFilledDate = isoDaysAgo(39);
    r.prescription.lastFilledDate = isoDaysAgo(9);
    r.prescription.expirationDate = new Date(Date.now() + 400 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
  });
  await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(row).not.toContainText("Allergies (");
  const queueWords = (await row.getByText(/^\d+ (failed|warnings?)$/).allTextContents()).join(", ");
  expect(queueWords).toBe("1 failed");
  await row.getByRole("link", { name: queueName(transfer) }).click();

  const banner = page.getByRole("region", { name: "Allergies" });
  await expect(banner).toContainText("No known allergies");
  await expect(banner).not.toContainText("NKDA");
  // The heading counts what the queue counted, in the same words.
  await expect(page.getByRole("heading", { name: `Automated checks · ${queueWords}` })).toBeVisible();
  const checks = page.getByRole("region", { name: /Automated checks/ });
  await expect(checks.getByText("Not a controlled substance", { exact: true })).toBeVisible();
  await expect(checks.getByText("Expiry", { exact: true })).toHaveCount(1);
  await expect(checks).not.toContainText("Legal expiry");
  await expect(checks).toContainText("Valid only until");

  // API words stay in the raw request panel; the NDC note is said once.
  const main = page.locator("main");
  const shown = (await main.innerText()).replace(/\{[\s\S]*\}/, "");
  for (const apiWord of ["Descriptor", "KNOWN_ALLERGIES", "quantityDispensed", "Luhn", "80840"])
    expect(shown, apiWord).not.toContain(apiWord);
  await expect(page.getByText(NDC_NOT_CHECKED)).toHaveCount(1);
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
    r.prescription.expirationDate = new Date(Date.now() + 60 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
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
