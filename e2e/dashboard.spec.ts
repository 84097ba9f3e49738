// What a receiving pharmacist does, in Chromium: a transfer sent over /v1 appears in the open queue without
// a reload; the review shows allergies, the prescriber's NPI and the insurance; approve (keyboard only) and
// print the record; reject another with an error type and a description; and two browsers racing to
// decide one transfer (exactly one wins, the other is told).
import { expect, test } from "./page-guard";
import {
  createPharmacist,
  createSender,
  queueName,
  sendTransfer,
  signIn,
  transferRequest,
  transferStatus,
} from "./dashboard-helpers";

test("a transfer sent over /v1 appears in the open queue without a reload", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Quinn Avery, PharmD");
  const partner = await createSender();
  await signIn(page, pharmacist);
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

  const transfer = transferRequest();
  await sendTransfer(request, partner, transfer);
  await expect(page.getByRole("link", { name: queueName(transfer) })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(row).toContainText("E2E Mail-Order");
  await expect(row).toContainText("Allergies (2)");
  await expect(row).toContainText(transfer.prescription.medicationName);
});

test("review shows allergies, prescriber NPI and insurance; approve with the keyboard; print the record", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Robin Hale, PharmD");
  const partner = await createSender();
  const transfer = transferRequest();
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);

  // Keyboard only: / to search, Enter, j to the row, Enter to open.
  await page.keyboard.press("/");
  await expect(page.getByRole("searchbox", { name: "Search" })).toBeFocused();
  await page.keyboard.type(transfer.patient.name.lastName);
  await page.keyboard.press("Enter");
  // The first page came with the page itself, so the row may be visible before the search has answered:
  // wait for the search's one row, or j would go to the first row of the list it replaces.
  await expect(page.locator("a[data-row-link]")).toHaveCount(1);
  await expect(page.getByRole("link", { name: queueName(transfer) })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).blur();
  await page.keyboard.press("j");
  await expect(page.getByRole("link", { name: queueName(transfer) })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}$`));

  const allergies = page.getByRole("region", { name: "Allergies" });
  await expect(allergies).toContainText("Penicillin");
  await expect(allergies).toContainText("Sulfa drugs");
  const prescriber = page.getByRole("region", { name: "Prescriber" });
  await expect(prescriber).toContainText(transfer.prescriber.npi);
  const insurance = page.getByRole("region", { name: "Primary insurance" });
  await expect(insurance).toContainText(transfer.primaryInsurance!.planName);
  await expect(insurance).toContainText(transfer.primaryInsurance!.cardHolderID);
  await expect(page.getByRole("region", { name: /Automated checks/ })).toContainText("NPI check digits");
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Keyboard shortcuts" })).toContainText("Approve");

  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  await expect(page.getByText(new RegExp(`^Approved by ${pharmacist.name} at \\d{4}-`))).toBeVisible();

  const outcome = await transferStatus(request, partner, referenceID);
  expect(outcome.metadata.responseType).toBe("CONFIRMED");
  expect(outcome.prescription?.rxNumber).toBe(transfer.prescription.rxNumber);

  await expect(page.getByRole("list", { name: "Timeline" })).toContainText(`Approved by ${pharmacist.name}`);
  await page.keyboard.press("p");
  await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}/record$`));
  await expect(page.getByRole("heading", { name: "Prescription transfer record" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Receiving pharmacist/ })).toContainText(pharmacist.name);
  await expect(page.getByRole("row", { name: /Prescription \(Rx\) number/ })).toContainText(
    transfer.prescription.rxNumber,
  );
  await expect(page.getByRole("button", { name: "Print record" })).toBeVisible();
});

test("reject another transfer with an error type and a description the sender will read", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Morgan Lee, RPh");
  const partner = await createSender();
  const transfer = transferRequest();
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist, `/transfers/${referenceID}`);

  await page.getByRole("button", { name: "Reject" }).click();
  const dialog = page.getByRole("dialog", { name: "Reject transfer" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(dialog.getByText("Choose an error type")).toBeVisible();
  await expect(dialog.getByText(/Description is required/)).toBeVisible();

  await dialog.getByLabel("Error type").selectOption("INVALID_INFO");
  await expect(dialog).toContainText("Information not acceptable: data is well-formed but not an acceptable value");
  await expect(dialog).toContainText("Sent as error type INVALID_INFO.");
  const description = "prescription.refillsRemaining: our records show no refills left; please confirm and resend";
  await dialog.getByLabel("Description").fill(description);
  await dialog.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();
  await expect(page.getByText(/Rejected \(Information not acceptable INVALID_INFO\) by/)).toBeVisible();
  await expect(page.getByText("Sent to the sender:")).toContainText(description);

  const outcome = await transferStatus(request, partner, referenceID);
  expect(outcome.metadata.responseType).toBe("ERROR");
  expect(outcome.error).toEqual({ type: "INVALID_INFO", description });
});

test("two browsers racing to decide one transfer: exactly one wins, the other is told", async ({
  browser,
  request,
}) => {
  const dana = await createPharmacist("Dana Race, PharmD");
  const eli = await createPharmacist("Eli Other, RPh");
  const partner = await createSender();
  const transfer = transferRequest();
  const referenceID = await sendTransfer(request, partner, transfer);

  // Dana has the transfer open in two windows (two browser contexts); both hold her claim.
  const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  const [first, second, other] = await Promise.all(contexts.map((c) => c.newPage()));
  await signIn(first!, dana, `/transfers/${referenceID}`);
  await signIn(second!, dana, `/transfers/${referenceID}`);
  for (const page of [first!, second!]) await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();

  // Another pharmacist sees who holds it and cannot decide meanwhile.
  await signIn(other!, eli, `/transfers/${referenceID}`);
  await expect(other!.getByText("Being reviewed by")).toContainText(dana.name);
  await expect(other!.getByRole("button", { name: "Approve" })).toBeDisabled();

  await first!.getByRole("button", { name: "Approve" }).click();
  await second!.getByRole("button", { name: "Reject" }).click();
  await second!.getByRole("dialog", { name: "Reject transfer" }).getByLabel("Error type").selectOption("OTHER");
  await second!
    .getByRole("dialog", { name: "Reject transfer" })
    .getByLabel("Description")
    .fill("racing the other window");
  await Promise.all([
    first!.getByRole("dialog", { name: "Approve transfer" }).getByRole("button", { name: "Confirm approval" }).click(),
    second!.getByRole("dialog", { name: "Reject transfer" }).getByRole("button", { name: "Confirm rejection" }).click(),
  ]);

  const approved = first!.getByText("Approved. CONFIRMED is on its way to the sender");
  const rejected = second!.getByText("Rejected. ERROR is on its way to the sender.");
  const toldFirst = first!
    .getByRole("alert")
    .filter({ hasText: /already rejected by .*Your decision was not recorded/ });
  const toldSecond = second!
    .getByRole("alert")
    .filter({ hasText: /already approved by .*Your decision was not recorded/ });
  await expect(approved.or(toldFirst)).toBeVisible();
  await expect(rejected.or(toldSecond)).toBeVisible();
  // Both screens have answered, so the decision is committed: the sender's status says who won, and the
  // loser's screen must name the winner (read with retrying assertions, not a one-off isVisible()).
  const outcome = await transferStatus(request, partner, referenceID);
  expect(["CONFIRMED", "ERROR"]).toContain(outcome.metadata.responseType);
  const firstWon = outcome.metadata.responseType === "CONFIRMED";
  await expect(firstWon ? approved : rejected).toBeVisible();
  await expect(firstWon ? toldSecond : toldFirst).toContainText(dana.name);
  // The other pharmacist's screen follows: decided, no buttons.
  await expect(
    other!.getByText(firstWon ? /Approved by .* at \d{4}-/ : /Rejected \(Other reason OTHER\) by .* at \d{4}-/),
  ).toBeVisible({ timeout: 15_000 });
  await expect(other!.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await Promise.all(contexts.map((c) => c.close()));
});
