// The overview page in Chromium: a pharmacist's version (no partner administration) and an admin's, each with
// its charts, their summaries and tables; no serious or critical axe violation; nothing wider than a 320 px
// screen; and the screenshot in docs/pharmacists/overview.md.
import { expectNoSeriousAxeViolations } from "./axe";
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./fixtures";
import { seedOverviewHistory } from "./overview-history";

test.describe.configure({ timeout: 180_000 });

test("the overview: charts with summaries and tables, accessible, at 320 px, partners for admins only", async ({
  page,
  request,
}) => {
  const partner = await createSender();
  await sendTransfer(request, partner, transferRequest());
  await sendTransfer(request, partner, transferRequest());

  const pharmacist = await createPharmacist("Robin Overview, PharmD");
  await signIn(page, pharmacist, "/overview");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending now by age" })).toContainText(
    /\d+ pending; \d+ pass the sender/,
  );
  await expect(page.getByRole("img", { name: /transfers arrived today/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Callbacks per partner, last 30 days" })).toHaveCount(0);
  const pending = page.getByRole("region", { name: "Pending now by age" });
  await pending.getByText("Show the table").click();
  await expect(pending.getByRole("row", { name: /^0-1 h \d+$/ })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the pharmacist's overview");

  await page.setViewportSize({ width: 320, height: 900 });
  await expect(page.getByRole("img", { name: /transfers arrived today/ })).toBeVisible();
  // The page's own content; the dashboard header is the layout's.
  const widest = await page.evaluate(() =>
    Math.max(...[...document.querySelectorAll("#main section, #main svg")].map((e) => e.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(320);
  const headerOverflow = await page.evaluate(() => document.querySelector("header")!.scrollWidth - 320);
  test.info().annotations.push({ type: "header overflow at 320 px", description: String(headerOverflow) });

  const admin = await createPharmacist("Alex Overview", "admin");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().clearCookies();
  // The administration page links to the overview, and the link is reached and followed by keyboard.
  await signIn(page, admin, "/admin");
  const link = page.getByRole("link", { name: "the overview" });
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/overview$/);
  if (process.env.UPDATE_DOCS_SCREENSHOTS) {
    // The docs' picture shows a month of a busy pharmacy, not the suite's few transfers.
    const second = await createSender();
    const { today } = (await (await page.request.get("/api/overview")).json()) as { today: { timeZone: string } };
    await seedOverviewHistory([partner.partnerId, second.partnerId], today.timeZone);
    await page.reload();
  }
  const callbacks = page.getByRole("region", { name: "Callbacks per partner, last 30 days" });
  await expect(callbacks.locator(`a[href="/admin/partners/${partner.partnerId}"]`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Partners' failure rate, last hour" })).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the admin's overview");
  // The docs' picture is retaken on request only (UPDATE_DOCS_SCREENSHOTS=1): a run of the suite leaves the tree as
  // committed; otherwise the picture goes to test-results/ with the run's other output.
  const picture = process.env.UPDATE_DOCS_SCREENSHOTS
    ? "docs/pharmacists/images/overview.png"
    : test.info().outputPath("overview.png");
  await page.screenshot({ path: picture, fullPage: true });
});
