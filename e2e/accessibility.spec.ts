// WCAG 2.1 AA on every screen: axe-core's A and AA rules on sign-in, the docs, the queue, the
// review with its approve and reject dialogs, the printable record, the transfer log, security, and every
// admin page, each with real data on it; no serious or critical violation allowed. And, by keyboard, that
// focus is visible and moves in reading order through the approve and reject dialogs.
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createPharmacist, createSender, queueName, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

/** A transfer with optional fields left out, so that the review and the record show their "not given" values. */
function sparseTransfer() {
  return transferRequest((r) => {
    r.prescription.firstFilledDate = null;
    r.prescription.lastFilledDate = null;
  });
}

// axe walks the whole page on every check, which takes seconds per screen on a busy 2-core machine.
test.describe.configure({ timeout: 180_000 });

test("sign-in and the API docs", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "/login");

  await page.goto("/docs");
  await expect(page.getByRole("region", { name: "POST /v1/transfer" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "/docs");
});

test("the pharmacist's screens: queue, review, both dialogs, record, transfer log, security", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Avery Contrast, PharmD");
  const partner = await createSender();
  const transfer = sparseTransfer();
  const referenceID = await sendTransfer(request, partner, transfer);
  await signIn(page, pharmacist);
  await expect(page.getByRole("link", { name: queueName(transfer) })).toBeVisible();
  await expect(page.getByText(referenceID)).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the queue");

  await page.getByRole("link", { name: queueName(transfer) }).click();
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
  await expect(page.getByText("not given").first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the review");

  await page.getByRole("button", { name: "Reject" }).click();
  const reject = page.getByRole("dialog", { name: "Reject transfer" });
  await reject.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(reject.getByText("Choose an error type")).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the reject dialog, with its errors");
  await reject.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const approve = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(approve.getByRole("button", { name: "Confirm approval" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the approve dialog");
  await approve.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
  await expectNoSeriousAxeViolations(page, "a decided review");

  await page.goto(`/transfers/${referenceID}/record`);
  await expect(page.getByRole("heading", { name: "Prescription transfer record" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the transfer record");

  await page.goto("/transfers/log");
  await expect(page.getByRole("heading", { level: 1, name: "Transfer log" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the transfer log");

  await page.goto("/security");
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "security");
});

test("every admin page", async ({ page, request }) => {
  const admin = await createPharmacist("Ada Contrast", "admin");
  const partner = await createSender();
  await sendTransfer(request, partner, transferRequest());
  await signIn(page, admin, "/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "/admin");

  const screens: [string, string | RegExp][] = [
    ["/admin/partners", "Partners"],
    [`/admin/partners/${partner.partnerId}`, /E2E Mail-Order/],
    ["/admin/users", "Users"],
    ["/admin/audit", "Audit log"],
    ["/admin/stores", "Stores"],
  ];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    // The tables fill in from the dashboard API: check them with rows in, not the loading state.
    await expect(page.getByRole("table").first().getByRole("row").nth(1)).toBeVisible();
    await expectNoSeriousAxeViolations(page, path);
  }
});

/** Where the keyboard focus is: its accessible name, whether it is inside `scope`, and whether it shows. */
async function focused(page: Page, scope: Locator) {
  const inside = await scope.evaluate((root) => root.contains(document.activeElement));
  const shown = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return false;
    const style = getComputedStyle(element);
    const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    return outlined || style.boxShadow !== "none";
  });
  const name = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return "";
    const labelled = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
    return (labelled ?? element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
  });
  return { name, inside, shown };
}

/** Tabs backwards from where the dialog put the focus, and returns each stop, first to last in page order. */
async function tabStops(page: Page, dialog: Locator, count: number) {
  const stops = [await focused(page, dialog)];
  for (let i = 1; i < count; i++) {
    await page.keyboard.press("Shift+Tab");
    stops.unshift(await focused(page, dialog));
  }
  return stops;
}

test("focus is visible and in reading order through the approve and reject dialogs", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Kim Keyboard, RPh");
  const partner = await createSender();
  const referenceID = await sendTransfer(request, partner, transferRequest());
  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();

  // Approve: the dialog starts on its confirming button; behind it, in order, the fields and Cancel.
  await page.keyboard.press("a");
  const approve = page.getByRole("dialog", { name: "Approve transfer" });
  await expect(approve.getByRole("button", { name: "Confirm approval" })).toBeFocused();
  const approveStops = await tabStops(page, approve, 4);
  expect(approveStops.map((s) => s.name)).toEqual([
    expect.stringMatching(/local Rx number/i),
    expect.stringMatching(/note/i),
    "Cancel",
    "Confirm approval",
  ]);
  for (const stop of approveStops) expect(stop, `focus on ${stop.name}`).toMatchObject({ inside: true, shown: true });
  await page.keyboard.press("Escape");
  await expect(approve).toBeHidden();

  // Reject, opened from its button by keyboard: the error type first, then the description, Cancel and the
  // confirming button, by Tab; Esc gives the focus back to the button.
  await page.getByRole("button", { name: "Reject" }).focus();
  await page.keyboard.press("Enter");
  const reject = page.getByRole("dialog", { name: "Reject transfer" });
  await expect(reject).toBeVisible();
  const first = await focused(page, reject);
  expect(first).toMatchObject({ name: expect.stringMatching(/error type/i), inside: true, shown: true });
  const rejectStops = [first];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press("Tab");
    rejectStops.push(await focused(page, reject));
  }
  expect(rejectStops.map((s) => s.name)).toEqual([
    expect.stringMatching(/error type/i),
    expect.stringMatching(/description/i),
    "Cancel",
    "Confirm rejection",
  ]);
  for (const stop of rejectStops) expect(stop, `focus on ${stop.name}`).toMatchObject({ inside: true, shown: true });
  await page.keyboard.press("Escape");
  await expect(reject).toBeHidden();
  await expect(page.getByRole("button", { name: "Reject" })).toBeFocused();
});
