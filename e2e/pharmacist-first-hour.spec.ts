// What confused a pharmacist in the first hour, as they meet it in Chromium: the approve dialog's
// schedule comes from the drug and an unknown drug must be chosen; the reject dialog speaks in words, confirms
// with Ctrl+Enter from the description, and the description stays visible afterwards; the checks panel
// catches a fill history that cannot be true, notes a refill that is too soon, gives quantities their units
// and presents a never-filled prescription as never filled; the queue's search takes a name in either order
// and a drug's name.
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
import type { TransferRequest } from "../lib/interface";

const DAY_MS = 86_400_000;
const isoDaysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");

function drug(r: TransferRequest, name: string, form: string, daysSupply: number, quantity: number): void {
  Object.assign(r.prescription, {
    medicationName: name,
    drugStrength: "20 mg",
    drugForm: form,
    daysSupply,
    quantityWritten: quantity,
    quantityDispensed: quantity,
  });
}

test("omeprazole: the schedule defaults to the drug's (not controlled, detected), and the record says how it was determined", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Rita Omari, PharmD");
  const partner = await createSender();
  const referenceID = await sendTransfer(
    request,
    partner,
    transferRequest((r) => drug(r, "Omeprazole", "Capsule, delayed release", 30, 30)),
  );
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(dialog.getByLabel("Drug schedule")).toHaveValue("");
  await expect(dialog.getByLabel("Drug schedule").locator("option:checked")).toHaveText(
    "Not a controlled substance (detected)",
  );
  await expect(dialog.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  await page.goto(`/transfers/${referenceID}/record`);
  await expect(
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "How the schedule was determined" }) }),
  ).toContainText(/omeprazole/i);
});

test("a drug the tables do not know: no silent default; the pharmacist must choose, and the record says it was set by the pharmacist", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Theo Banks, RPh");
  const partner = await createSender();
  const referenceID = await sendTransfer(
    request,
    partner,
    transferRequest((r) => drug(r, "Zentravolix", "Tablet", 30, 30)),
  );
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve transfer" });
  const schedule = dialog.getByLabel("Drug schedule");
  await expect(schedule).toBeFocused();
  await expect(schedule.locator("option:checked")).toHaveText("Choose the schedule…");
  await page.keyboard.press("Control+Enter");
  await expect(dialog.getByRole("alert")).toContainText(
    "Choose the schedule: this drug is not in the controlled-substance table.",
  );
  expect((await transferStatus(request, partner, referenceID)).metadata.responseType).toBe("RECEIVED");
  await schedule.selectOption({ label: "Not a controlled substance" });
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  await page.goto(`/transfers/${referenceID}/record`);
  await expect(
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "How the schedule was determined" }) }),
  ).toContainText("set by pharmacist");
});

test("rejecting: error types in words, Enter is a new line and Ctrl+Enter confirms; the description stays on the screen, the timeline and the record page", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Nadia Frost, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => drug(r, "Gabapentin", "Capsule", 30, 90));
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await page.keyboard.press("r");
  const dialog = page.getByRole("dialog", { name: "Reject transfer" });
  const type = dialog.getByLabel("Error type");
  await expect(type.locator("option")).toContainText([
    "Information missing (MISSING_INFO)",
    "Information not acceptable (INVALID_INFO)",
    "Prescription expired (RX_EXPIRED)",
  ]);
  await type.selectOption({ label: "Information not acceptable (INVALID_INFO)" });
  await expect(dialog.getByText("Sent as error type INVALID_INFO.")).toBeVisible();
  const description = dialog.getByLabel("Description");
  await description.fill("prescription.quantityWritten: 90 capsules");
  await description.press("Enter");
  await description.pressSequentially("for a 30-day supply; please confirm the sig");
  await expect(description).toHaveValue(
    "prescription.quantityWritten: 90 capsules\nfor a 30-day supply; please confirm the sig",
  );
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Ctrl+Enter (⌘+Enter on a Mac) confirms");
  await description.press("Control+Enter");
  await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();

  const sent = "prescription.quantityWritten: 90 capsules\nfor a 30-day supply; please confirm the sig";
  const status = await transferStatus(request, partner, referenceID);
  expect(status.error).toEqual({ type: "INVALID_INFO", description: sent });
  await expect(page.getByText(/Rejected \(Information not acceptable/)).toBeVisible();
  await expect(page.getByText("Sent to the sender:")).toContainText("please confirm the sig");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText(
    /Rejected by Nadia Frost, PharmD \(Information not acceptable \(INVALID_INFO\)\): ERROR queued for the sender, saying “prescription.quantityWritten: 90 capsules/,
  );
  await page.goto(`/transfers/${referenceID}/record`);
  await expect(page.getByText("Sent to the sender:")).toContainText("please confirm the sig");
});

test("the checks: gabapentin filled 4 times in 8 days cannot be true; a refill too soon is a note with its due date; a cream is in grams", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Omar Reyes, RPh");
  const partner = await createSender();
  const gabapentin = await sendTransfer(
    request,
    partner,
    transferRequest((r) => {
      drug(r, "Gabapentin", "Capsule", 90, 270);
      Object.assign(r.prescription, {
        writtenDate: isoDaysAgo(10),
        firstFilledDate: isoDaysAgo(9),
        lastFilledDate: isoDaysAgo(1),
        refillsAuthorized: 5,
        refillsRemaining: 1,
      });
    }),
  );
  await signIn(page, pharmacist, `/transfers/${gabapentin}`);
  const checks = page.getByRole("region", { name: /Automated checks/ });
  await expect(checks).toContainText(
    /Filled 4 times between .* \(8 days\), but 3 refills of a 90-day supply take at least 202.5 days, even each 25 % early: this fill history cannot be true/,
  );
  await expect(checks).toContainText("Refill too soon");
  const due = new Date(Date.now() - 1 * DAY_MS + 67.5 * DAY_MS).toISOString().slice(0, 10);
  await expect(checks).toContainText(
    new RegExp(
      `The next fill is due on (${due}|${new Date(Date.parse(due) - DAY_MS).toISOString().slice(0, 10)}|${new Date(Date.parse(due) + DAY_MS).toISOString().slice(0, 10)})`,
    ),
  );
  await expect(checks).toContainText("270 capsules per fill for 90 days, 3 capsules a day");
  await expect(checks).not.toContainText("Advisory");

  const cream = await sendTransfer(
    request,
    partner,
    transferRequest((r) => drug(r, "Triamcinolone Acetonide", "Cream", 30, 80)),
  );
  await page.goto(`/transfers/${cream}`);
  await expect(page.getByRole("region", { name: /Automated checks/ })).toContainText(
    "80 g per fill for 30 days (80 g written).",
  );
  await expect(page.getByRole("region", { name: "Prescription" })).toContainText("Quantity per fill");
  await expect(page.getByRole("region", { name: "Prescription" })).toContainText("80 g");
  await expect(page.getByRole("region", { name: /Automated checks/ })).not.toContainText("per day");
});

test("a prescription never filled reads as never filled everywhere on the screen", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Ivy Chen, PharmD");
  const partner = await createSender();
  const referenceID = await sendTransfer(
    request,
    partner,
    transferRequest((r) => {
      drug(r, "Triamcinolone Acetonide", "Cream", 30, 80);
      Object.assign(r.prescription, {
        firstFilledDate: null,
        lastFilledDate: null,
        refillsAuthorized: 3,
        refillsRemaining: 2,
      });
    }),
  );
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  const rx = page.getByRole("region", { name: "Prescription" });
  await expect(rx).toContainText("NDC to dispense");
  await expect(rx).toContainText("same as prescribed (never dispensed)");
  await expect(rx).not.toContainText("Quantity dispensed");
  const checks = page.getByRole("region", { name: /Automated checks/ });
  await expect(checks).toContainText("Never filled: the first fill and all 2 refills after it remain.");
  await expect(checks).not.toContainText("Dispensed as prescribed");
  await expect(checks).not.toContainText("Refill too soon");
});

test("the queue's search finds a patient by name in either order, and by the drug's name", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Lena Park, RPh");
  const partner = await createSender();
  const tag = Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 5);
  const transfer = transferRequest((r) => {
    r.patient.name.firstName = `Abigail${tag}`;
    r.patient.name.lastName = `Tanaka${tag}`;
    drug(r, `Omeprazole${tag}`, "Capsule", 30, 30);
  });
  await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);
  const search = page.getByRole("searchbox", { name: "Search" });
  await expect(search).toHaveAttribute("placeholder", "Name, drug, DOB, Rx or reference");
  for (const q of [`Abigail${tag} Tanaka${tag}`, `Tanaka${tag} Abigail${tag}`, `omeprazole${tag}`]) {
    await search.fill(q);
    await search.press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(q).replace(/%20/g, "(\\+|%20)")}`));
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.getByRole("link", { name: queueName(transfer) })).toBeVisible();
  }
});

test("the queue: a decided row names who decided it; no row looks selected until j; clearing a search announces no arrivals", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Maya Stone, PharmD");
  const partner = await createSender();
  const transfer = transferRequest((r) => drug(r, "Omeprazole", "Capsule", 30, 30));
  const referenceID = await sendTransfer(request, partner, transfer);
  const other = transferRequest();
  await sendTransfer(request, partner, other);
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await page.keyboard.press("r");
  const dialog = page.getByRole("dialog", { name: "Reject transfer" });
  await dialog.getByLabel("Error type").selectOption({ label: "Other reason (OTHER)" });
  await dialog.getByLabel("Description").fill("patient moved away");
  await dialog.getByLabel("Description").press("Control+Enter");
  await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();

  await page.goto("/transfers");
  await page
    .getByRole("group", { name: "Status" })
    .getByRole("button", { name: /^Rejected/ })
    .click();
  const decided = page.getByRole("row").filter({ has: page.getByRole("link", { name: queueName(transfer) }) });
  await expect(decided).toContainText("Maya Stone, PharmD");
  await expect(decided).toContainText("rejected");

  await page
    .getByRole("group", { name: "Status" })
    .getByRole("button", { name: /^Pending/ })
    .click();
  const rows = page.locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).not.toHaveClass(/outline-blue-500/);
  await page.keyboard.press("j");
  await expect(rows.first()).toHaveClass(/outline-blue-500/);
  await expect(rows.first().getByRole("link").first()).toBeFocused();

  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill(other.patient.name.lastName);
  await search.press("Enter");
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole("link", { name: queueName(other) })).toBeVisible();
  await search.press("Escape");
  await expect(rows.nth(1)).toBeVisible();
  await page.waitForTimeout(6_000); // one refresh of the cleared queue
  await expect(page.getByRole("status").filter({ hasText: /arrived/ })).toHaveCount(0);
});

test("idle on a review screen (claim renewals and refreshes running): the sign-in page says why the session ended", async ({
  page,
  request,
}) => {
  const idleMs = Number(process.env.E2E_SESSION_IDLE_MINUTES) * 60_000;
  test.setTimeout(idleMs + 60_000);
  const pharmacist = await createPharmacist("Idle Iris, RPh");
  const partner = await createSender();
  const referenceID = await sendTransfer(request, partner, transferRequest());
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
  // No input from now on. Whatever background request meets the ended session first, the way out keeps the reason.
  await expect(page).toHaveURL(/\/login\?.*reason=idle/, { timeout: idleMs + 10_000 });
  await expect(
    page.getByRole("status").filter({ hasText: /You were signed out after .* without activity/ }),
  ).toBeVisible();
  await page.waitForTimeout(3_000);
  await expect(page).toHaveURL(/reason=idle/);
  // The place to return to is kept: signing in again reopens the transfer.
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`/transfers/${referenceID}`);
  await page.getByLabel("Email").fill(pharmacist.email);
  await page.getByLabel("Password").fill(pharmacist.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}$`));
});
