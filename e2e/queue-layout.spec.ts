// The queue's first page comes with the document (the first paint has the rows), and the layout holds
// still while the page refreshes and transfers arrive: cumulative layout shift below 0.02, from Chromium's
// own PerformanceObserver (tests/support/layout-shift.ts), at desktop width and at 320 px.
import { LAYOUT_SHIFT_SCRIPT, readLayoutShift } from "../tests/support/layout-shift";
import { createPharmacist, createSender, queueName, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

const VIEWPORTS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "320 px", viewport: { width: 320, height: 640 } },
] as const;

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport });

    test("the queue's rows are in the server's HTML, and nothing moves while it refreshes", async ({
      page,
      request,
    }) => {
      const pharmacist = await createPharmacist(`Lou Layout-${viewport.width}, PharmD`);
      const partner = await createSender();
      const transfers = Array.from({ length: 8 }, () => transferRequest());
      for (const transfer of transfers) await sendTransfer(request, partner, transfer);
      await signIn(page, pharmacist);

      // The document itself lists them: no script has to fetch the rows before they show.
      const html = await (await page.request.get("/transfers?sort=newest")).text();
      for (const transfer of transfers) expect(html).toContain(queueName(transfer));

      await page.addInitScript(LAYOUT_SHIFT_SCRIPT);
      await page.goto("/transfers");
      await expect(page.locator("tbody a[data-row-link]").first()).toBeVisible();
      const statusLine = page.getByText(/^Updated /);
      await expect(statusLine).toBeVisible();
      const firstRead = await statusLine.textContent();
      // More transfers arrive; the screen's own refresh shows them.
      for (let i = 0; i < 2; i++) await sendTransfer(request, partner, transferRequest());
      await expect(statusLine).not.toHaveText(firstRead!, { timeout: 15_000 });
      await expect(statusLine).toHaveText(/^Updated /);

      const cls = await readLayoutShift(page);
      expect(cls, "cumulative layout shift of the queue").toBeLessThan(0.02);
    });
  });
}
