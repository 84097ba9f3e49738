// What the drug itself means, as a pharmacist meets it in Chromium (issue 10): oxycodone shows C-II and cannot
// be approved (a prefilled rejection is offered instead); alprazolam written 200 days ago cannot be approved;
// amoxicillin for a patient allergic to penicillin is a red warning, repeated in the approve dialog, and can
// still be approved; and the printable record carries every legal element on one US Letter page.
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
import { db } from "../lib/db/prisma";
import type { TransferRequest } from "../lib/transfers/wire";

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
    ["Refills remaining", "1"],
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
