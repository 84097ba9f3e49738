// The overview refreshes live like the queue, and nothing on it moves when it does: the admin's and the
// pharmacist's version, at 1440 px and at 320 px. The page loads with its tables open; transfers then arrive over
// /v1 and a pharmacist approves one and rejects one through the dashboard API; the page's own refresh (forced
// as a return to the tab does) must show the new figures in the summaries and the tables, and the cumulative
// layout shift Chromium's PerformanceObserver reports (tests/support/layout-shift.ts), over the whole visit and
// over the refresh alone, stays below 0.02.
import type { Page } from "@playwright/test";
import { LAYOUT_SHIFT_SCRIPT, readLayoutShift } from "../tests/support/layout-shift";
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

test.describe.configure({ timeout: 120_000 });

const VIEWPORTS = [
  { name: "1440 px", viewport: { width: 1440, height: 900 } },
  { name: "320 px", viewport: { width: 320, height: 640 } },
] as const;
const SAME_ORIGIN = { "sec-fetch-site": "same-origin", "content-type": "application/json" };

/** The numbers `pattern` finds in a region's summary (the name of its chart), one per group. */
async function numberIn(page: Page, region: string, pattern: RegExp): Promise<number[]> {
  const summary = await page.getByRole("region", { name: region }).locator("p[id$='-summary']").textContent();
  const match = pattern.exec(summary ?? "");
  if (!match) throw new Error(`"${summary}" does not match ${pattern}`);
  return match.slice(1).map(Number);
}

/** The number in an open table's row named by its first cell; 0 when the table has no such row. */
async function countInRow(page: Page, region: string, firstCell: string): Promise<number> {
  const cells = await page
    .getByRole("region", { name: region })
    .getByRole("row", { name: new RegExp(`^${firstCell.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\d+$`) })
    .getByRole("cell")
    .allTextContents();
  return cells.length === 0 ? 0 : Number(cells[0]);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport });

    for (const role of ["pharmacist", "admin"] as const) {
      test(`the ${role}'s overview shows the new figures when it refreshes, and nothing moves`, async ({
        page,
        request,
      }) => {
        // The partner exists before the page opens: a new partner is a new row, which is not what is measured.
        const partner = await createSender();
        const viewer = await createPharmacist(
          `Vera Overview-${viewport.width}${role === "admin" ? "" : ", PharmD"}`,
          role,
        );
        const partnerLink = `a[href="/admin/partners/${partner.partnerId}"]`;
        const decider = await createPharmacist(`Dana Decider-${viewport.width}, PharmD`);

        await page.addInitScript(LAYOUT_SHIFT_SCRIPT);
        await signIn(page, viewer, "/overview");
        await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
        for (const region of [
          "Pending now by age",
          "Decisions today by hour",
          "Approvals and rejections, last 30 days",
        ])
          await page.getByRole("region", { name: region }).getByText("Show the table").click();
        const callbacks = page.getByRole("region", { name: "Callbacks per partner, last 30 days" });
        if (role === "admin") await expect(callbacks.locator(partnerLink)).toBeVisible();
        else await expect(callbacks).toHaveCount(0);
        // At 320 px the charts stack: the one whose table is read is scrolled to the top of the screen.
        await page.getByRole("region", { name: "Pending now by age" }).evaluate((e) => e.scrollIntoView());

        const [arrived = NaN] = await numberIn(page, "Arrivals today by hour", /^(\d+) transfers arrived today/);
        const [pending = NaN] = await numberIn(page, "Pending now by age", /^(\d+) pending;/);
        const [approvedToday = NaN, rejectedToday = NaN] = await numberIn(
          page,
          "Decisions today by hour",
          /^(\d+) approved and (\d+) rejected today/,
        );
        const outcomes = page.getByRole("region", { name: "Approvals and rejections, last 30 days" });
        const rejectedRow = "Rejected: RX_EXPIRED";
        const approved30 = await countInRow(page, "Approvals and rejections, last 30 days", "Approved");
        const expired30 = await countInRow(page, "Approvals and rejections, last 30 days", rejectedRow);

        // What the page shifts by from here on is the refresh's.
        await page.evaluate(() => {
          const w = window as unknown as { __refreshShift: number };
          w.__refreshShift = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!entry.hadRecentInput) w.__refreshShift += entry.value;
          }).observe({ type: "layout-shift" });
        });

        // Three transfers arrive; another pharmacist approves one and rejects one.
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await sendTransfer(request, partner, transferRequest()));
        const deciding = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
        const deciderPage = await deciding.newPage();
        await signIn(deciderPage, decider);
        const approve = await deciderPage.request.post(`/api/transfers/${ids[0]}/approve`, {
          headers: SAME_ORIGIN,
          data: {},
        });
        expect(approve.status(), await approve.text()).toBe(200);
        const reject = await deciderPage.request.post(`/api/transfers/${ids[1]}/reject`, {
          headers: SAME_ORIGIN,
          data: { errorType: "RX_EXPIRED", description: "Written over a year ago." },
        });
        expect(reject.status(), await reject.text()).toBe(200);
        await deciding.close();

        // The refresh a return to the tab starts (the same query the minute's timer runs), until it brings them:
        // one already under way when the decisions were made would answer the figures before them.
        const pendingChart = page.getByRole("img", { name: new RegExp(`^${pending + 1} pending;`) });
        await expect(async () => {
          await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
          await expect(pendingChart).toBeVisible({ timeout: 2_000 });
        }).toPass({ timeout: 30_000 });
        await expect(
          page.getByRole("img", { name: new RegExp(`^${arrived + 3} transfers arrived today`) }),
        ).toBeVisible();
        await expect(
          page.getByRole("img", {
            name: `${approvedToday + 1} approved and ${rejectedToday + 1} rejected today.`,
            exact: true,
          }),
        ).toBeVisible();
        await expect(outcomes.getByRole("row", { name: `Approved ${approved30 + 1}`, exact: true })).toBeVisible();
        await expect(outcomes.getByRole("row", { name: `${rejectedRow} ${expired30 + 1}`, exact: true })).toBeVisible();
        if (role === "admin") {
          // Its two callbacks, in whichever state their delivery has reached.
          const row = callbacks.getByRole("row").filter({ has: page.locator(partnerLink) });
          await expect
            .poll(async () =>
              (await row.getByRole("cell").allTextContents()).slice(0, 5).reduce((a, c) => a + Number(c), 0),
            )
            .toBe(2);
        }

        const refreshShift = await page.evaluate(
          () => (window as unknown as { __refreshShift: number }).__refreshShift,
        );
        const cls = await readLayoutShift(page);
        test.info().annotations.push({ type: "layout shift", description: `refresh ${refreshShift}, CLS ${cls}` });
        expect(refreshShift, "layout shift of the refresh").toBeLessThan(0.02);
        expect(cls, "cumulative layout shift of the overview").toBeLessThan(0.02);
      });
    }
  });
}
