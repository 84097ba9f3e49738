// "Decide and open the next one": with the setting on, a decision made by keyboard (a, then Enter on the
// focused confirmation) opens the same patient's next pending transfer, and after that one the queue's next.
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

test("with the setting on, each decision opens the next transfer: the same patient's first, then the queue's", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Nell Nextone, PharmD");
  const partner = await createSender();
  const first = transferRequest();
  const second = transferRequest((r) => {
    r.patient = structuredClone(first.patient);
    r.metadata.patientReferenceID = first.metadata.patientReferenceID;
  });
  const firstID = await sendTransfer(request, partner, first);
  const secondID = await sendTransfer(request, partner, second);
  await sendTransfer(request, partner, transferRequest()); // another patient: the queue has more waiting

  await signIn(page, pharmacist, `/transfers/${firstID}`);
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
  const setting = page.getByRole("checkbox", { name: "Open the next transfer after each decision" });
  await expect(setting).not.toBeChecked();
  await setting.check();

  // One key, then the confirmation: the same patient's next transfer opens.
  await page.keyboard.press("a");
  await expect(page.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/transfers/${secondID}$`));
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();

  // The setting stays on; with no more for this patient, the queue's next pending transfer opens.
  await expect(setting).toBeChecked();
  await page.keyboard.press("a");
  await expect(page.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(new RegExp(`/transfers/(${firstID}|${secondID})$`));
  await expect(page).toHaveURL(/\/transfers\/trf_\w+$/);
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
});
