// Allergies as a pharmacist meets them in Chromium: amoxicillin for a patient allergic to penicillin is a red
// warning, repeated in the approve dialog, and can still be approved; NKDA reads as no known allergies, and
// the screen speaks a pharmacist's words, says each fact once, and counts problems as the queue does.
import { expect, test } from "./fixtures";
import { queueName, signIn, transferStatus } from "./dashboard-helpers";
import { drug, isoDaysAgo, isoDaysAhead, sendPrescription } from "./support/drug-prescriptions";
import { NDC_NOT_CHECKED } from "../lib/drugs";

test("amoxicillin for a patient allergic to penicillin: a red warning in the banner and the dialog, and it can be approved", async ({
  page,
  request,
}) => {
  const { pharmacist, partner, transfer, referenceID } = await sendPrescription(request, "Sam Ortiz, PharmD", (r) => {
    drug(r, "Amoxicillin", "500 mg", "Capsule");
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
    r.prescription.quantityWritten = 30;
    r.prescription.quantityDispensed = 30;
    r.prescription.daysSupply = 10;
  });
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

test("NKDA reads as no known allergies; the screen speaks a pharmacist's words and says each fact once", async ({
  page,
  request,
}) => {
  const { pharmacist, transfer } = await sendPrescription(request, "Noor Haddad, PharmD", (r) => {
    drug(r, "Atorvastatin Calcium", "20 mg");
    r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: ["NKDA"] };
    // A sender's date later than the legal expiry: one expiry line, the stricter date deciding.
    r.prescription.writtenDate = isoDaysAgo(40);
    r.prescription.firstFilledDate = isoDaysAgo(39);
    r.prescription.lastFilledDate = isoDaysAgo(9);
    r.prescription.expirationDate = isoDaysAhead(400);
  });
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
