// Controlled refills and the transfer record in Chromium: zolpidem needs the one-time-transfer confirmation
// and its printable record carries every legal element on one US Letter page; clonazepam's refills are the
// lawful number on the screen, in the dialog and on the record.
import { expect, test } from "./fixtures";
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { drug, isoDaysAgo, isoDaysAhead, sendPrescription } from "./support/drug-prescriptions";
import { db } from "../lib/db/prisma";

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
    r.prescription.expirationDate = isoDaysAhead(130);
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

test("clonazepam written with 11 refills: the screen, the dialog and the record state the lawful 4, the sender's 10 beside it", async ({
  page,
  request,
}) => {
  const { pharmacist, referenceID } = await sendPrescription(request, "Lee Carver, RPh", (r) => {
    drug(r, "Clonazepam", "0.5 mg");
    r.prescription.writtenDate = isoDaysAgo(40);
    r.prescription.firstFilledDate = isoDaysAgo(39);
    r.prescription.lastFilledDate = isoDaysAgo(9);
    r.prescription.expirationDate = isoDaysAhead(130);
    r.prescription.refillsAuthorized = 12;
    r.prescription.refillsRemaining = 10;
  });
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
