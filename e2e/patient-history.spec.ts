// In Chromium and by keyboard: a mail-order sender moves two prescriptions of a returning
// patient. The queue groups them ("Same patient: 1 of 2"); the review screen shows the patient's history (the
// lisinopril approved earlier, matched on name and date of birth), the duplicate-therapy warning (Zestril is
// lisinopril) with a link to that transfer, and "Next for this patient" (n) before and after the decision.
// When the history cannot be loaded, the screen says so and the pharmacist can still decide.
import { expect, test } from "./fixtures";
import { createPharmacist, createSender, queueName, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import type { TransferRequest } from "../lib/interface";

function patientOf(base: TransferRequest): (r: TransferRequest) => void {
  return (r) => {
    r.patient.name = { ...base.patient.name };
    r.patient.dateOfBirth = base.patient.dateOfBirth;
  };
}

test("history, duplicate therapy and the patient's group, by keyboard", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Noor Haddad, PharmD");
  const partner = await createSender();
  const earlier = transferRequest((r) => {
    r.metadata.patientReferenceID = `pat_${r.patient.name.lastName}_1`;
    r.prescription.medicationName = "Lisinopril 10 mg tablet";
    r.prescription.drugStrength = "10 mg";
  });
  const earlierID = await sendTransfer(request, partner, earlier);
  // The sender's second profile for the same person (another patient id; the name in capitals).
  const zestril = transferRequest((r) => {
    patientOf(earlier)(r);
    r.patient.name.lastName = earlier.patient.name.lastName.toUpperCase();
    r.metadata.patientReferenceID = `pat_${earlier.patient.name.lastName}_2`;
    r.prescription.medicationName = "Zestril";
    r.prescription.drugStrength = "10 mg";
  });
  const metformin = transferRequest((r) => {
    patientOf(earlier)(r);
    r.metadata.patientReferenceID = `pat_${earlier.patient.name.lastName}_2`;
    r.prescription.medicationName = "Metformin 500 mg tablet";
    r.prescription.drugStrength = "500 mg";
  });

  await signIn(page, pharmacist);
  const approved = await page.request.post(`/api/transfers/${earlierID}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  const zestrilID = await sendTransfer(request, partner, zestril);
  const metforminID = await sendTransfer(request, partner, metformin);

  // The queue, by keyboard: search the patient, the two pending transfers are one group.
  await page.keyboard.press("/");
  await page.keyboard.type(earlier.patient.name.lastName);
  await page.keyboard.press("Enter");
  const first = page.getByRole("link", { name: queueName(zestril), exact: true });
  await expect(first).toBeVisible();
  await expect(first).toHaveAccessibleDescription("Same patient: 1 of 2");
  await expect(page.getByRole("link", { name: queueName(metformin), exact: true })).toHaveAccessibleDescription(
    "Same patient: 2 of 2",
  );
  await page.getByRole("searchbox", { name: "Search" }).blur();
  await page.keyboard.press("j");
  await expect(first).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/transfers/${zestrilID}$`));

  // Duplicate therapy, in words, with a link to the approved lisinopril.
  const warning = page.getByRole("alert").filter({ hasText: "Duplicate therapy" });
  await expect(warning).toContainText("this patient has another transfer of the same substance within 90 days");
  await expect(warning.getByRole("link", { name: "Lisinopril 10 mg tablet 10 mg" })).toHaveAttribute(
    "href",
    `/transfers/${earlierID}`,
  );
  await expect(warning).toContainText(`approved by ${pharmacist.name}`);

  // The history panel: h moves focus to it; it lists the earlier transfer, its outcome and how it matched.
  await page.keyboard.press("h");
  const history = page.getByRole("region", { name: "Patient history" });
  await expect(history).toBeFocused();
  const row = history.getByRole("row").filter({ hasText: "Lisinopril 10 mg tablet" });
  await expect(row).toContainText("Approved");
  await expect(row).toContainText(pharmacist.name);
  await expect(row).toContainText("same name and date of birth");
  await expect(history.getByRole("row").filter({ hasText: "Metformin" })).toContainText("Pending");
  // Tab reaches the sort switch, then the transfers' links.
  await page.keyboard.press("Tab");
  const sort = history.getByRole("button", { name: "Oldest first" });
  await expect(sort).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(sort).toHaveAttribute("aria-pressed", "true");
  await expect(history.getByRole("table")).toContainText("oldest first");
  await expect(history.getByRole("row").nth(1)).toContainText("Lisinopril 10 mg tablet");
  await page.keyboard.press("Tab");
  await expect(history.getByRole("link").first()).toBeFocused();
  await page.locator("body").focus();
  await expect(page.getByRole("region", { name: "Keyboard shortcuts" })).toContainText("Next for this patient");

  // Decide by keyboard (the warning does not block), then n opens the patient's next transfer.
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  await expect(page.getByRole("link", { name: /Next for this patient/ })).toBeVisible();
  await page.keyboard.press("n");
  await expect(page).toHaveURL(new RegExp(`/transfers/${metforminID}$`));
  // Before deciding this one: nothing else pending for the patient, and n says so.
  await expect(
    page.getByRole("region", { name: "Patient history" }).getByRole("row").filter({ hasText: "Zestril" }),
  ).toContainText("Approved");
  await expect(page.getByRole("link", { name: /Next for this patient/ })).toHaveCount(0);
  await page.keyboard.press("n");
  await expect(
    page.getByRole("status").filter({ hasText: "No other pending transfer for this patient." }),
  ).toBeVisible();
});

test("when the history cannot be loaded, the review screen says so and the transfer can still be decided", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Ines Varga, PharmD");
  const partner = await createSender();
  const transfer = transferRequest();
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);
  // The history's query fails (as a database error would make it): the rest of the screen must not care.
  await page.route(`**/api/transfers/${referenceID}/history`, (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/problem+json",
      body: JSON.stringify({ type: "about:blank", title: "Internal error", status: 500, detail: "failed" }),
    }),
  );
  await page.goto(`/transfers/${referenceID}`);
  await expect(page.getByRole("region", { name: "Patient history" })).toContainText(
    "History could not be loaded. You can still decide this transfer.",
  );
  await page.keyboard.press("a");
  await page
    .getByRole("dialog", { name: "Approve transfer" })
    .getByRole("button", { name: "Confirm approval" })
    .click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
});
