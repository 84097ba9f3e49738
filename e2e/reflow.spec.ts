// WCAG 1.4.10 Reflow: every screen at 320 CSS px wide (a phone, or a 1280 px desktop at 400 % zoom) and at
// 200 % zoom of a 1280 × 800 desktop (a 640 × 400 CSS px viewport drawn at device scale 2, which is what the
// browser's zoom does to layout) scrolls only vertically; data tables may scroll inside their own region.
// The sign-out buttons stay on screen and legible; axe checks each screen; the main flow works by keyboard.
import type { Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createPharmacist, createSender, queueName, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

test.describe.configure({ timeout: 240_000 });

const VIEWPORTS = [
  { name: "320 px", viewport: { width: 320, height: 640 }, deviceScaleFactor: 1 },
  { name: "200 % zoom", viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
] as const;

async function expectNoHorizontalScroll(page: Page, screen: string): Promise<void> {
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => {
    // The elements that stick out to the right outside any scrolling region, for a message that says what to fix.
    const inScroller = (el: HTMLElement) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const sticking = [...document.body.querySelectorAll<HTMLElement>("*")].filter(
      (el) =>
        !inScroller(el) &&
        (el.getBoundingClientRect().right > window.innerWidth + 0.5 ||
          // text wider than its box
          (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible" && el.clientWidth > 0)),
    );
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      wide: sticking
        .slice(-3)
        .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? "").slice(0, 40)}`),
    };
  });
  expect(
    scrollWidth,
    `${screen} scrolls sideways (${scrollWidth} px content in ${innerWidth} px): ${wide.join(" | ")}`,
  ).toBeLessThanOrEqual(innerWidth);
}

/** Both sign-out buttons lie inside the viewport, on the header's dark background. */
async function expectSignOutOnScreen(page: Page): Promise<void> {
  for (const name of ["Sign out", "Sign out everywhere"]) {
    const button = page.getByRole("banner").getByRole("button", { name, exact: true });
    await expect(button).toBeInViewport({ ratio: 1 });
  }
}

async function checkScreen(page: Page, screen: string): Promise<void> {
  await expectNoHorizontalScroll(page, screen);
  await expectSignOutOnScreen(page);
  await expectNoSeriousAxeViolations(page, screen);
}

for (const { name, viewport, deviceScaleFactor } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport, deviceScaleFactor });

    test("the pharmacist's screens reflow, and the queue-to-decision flow works by keyboard", async ({
      page,
      request,
    }) => {
      const pharmacist = await createPharmacist(`Rena Reflow-${viewport.width}, PharmD`);
      const partner = await createSender();
      const transfer = transferRequest();
      const referenceID = await sendTransfer(request, partner, transfer);
      // Newest first: the suite's other specs leave pending transfers in the shared database, more than a page
      // of them by now, and oldest first this one would be on a later page.
      await signIn(page, pharmacist, "/transfers?sort=newest");
      await expect(page.getByRole("link", { name: queueName(transfer) })).toBeVisible();
      await checkScreen(page, `the queue at ${name}`);

      // By keyboard: Tab reaches the transfer's link, Enter opens it.
      const link = page.getByRole("link", { name: queueName(transfer) });
      for (let i = 0; i < 60 && !(await link.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press("Tab");
      }
      await expect(link).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}$`));
      await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
      await checkScreen(page, `the review at ${name}`);

      await page.keyboard.press("a");
      const approve = page.getByRole("dialog", { name: "Approve transfer" });
      const confirm = approve.getByRole("button", { name: "Confirm approval" });
      await expect(confirm).toBeFocused();
      await expectNoHorizontalScroll(page, `the approve dialog at ${name}`);
      await expect(confirm).toBeInViewport();
      await expectNoSeriousAxeViolations(page, `the approve dialog at ${name}`);
      await page.keyboard.press("Enter");
      await expect(page.getByText("Approved. CONFIRMED is on its way to the sender")).toBeVisible();
      await checkScreen(page, `a decided review at ${name}`);

      const pages: [string, string][] = [
        [`/transfers/${referenceID}/record`, "Prescription transfer record"],
        ["/transfers/log", "Transfer log"],
        ["/security", "Security"],
      ];
      for (const [path, heading] of pages) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await checkScreen(page, `${path} at ${name}`);
      }

      // Sign out, by keyboard, from a narrow screen.
      await page.getByRole("banner").getByRole("button", { name: "Sign out", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/login\?reason=signed_out/);
      await expectNoHorizontalScroll(page, `the sign-in page at ${name}`);
    });

    test("the admin screens reflow", async ({ page, request }) => {
      const admin = await createPharmacist(`Ada Reflow-${viewport.width}`, "admin");
      const partner = await createSender();
      await sendTransfer(request, partner, transferRequest());
      await signIn(page, admin, "/admin");
      await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
      await checkScreen(page, `/admin at ${name}`);
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
        await expect(page.getByRole("table").first().getByRole("row").nth(1)).toBeVisible();
        await checkScreen(page, `${path} at ${name}`);
      }
      await page.goto("/admin/integration-keys");
      await expect(page.getByRole("heading", { level: 1, name: "Integration keys" })).toBeVisible();
      await checkScreen(page, `/admin/integration-keys at ${name}`);
    });
  });
}
