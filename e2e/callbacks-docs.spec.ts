import { expect, test } from "./fixtures";

test("the docs page tells senders how callbacks are signed, verified and retried", async ({ page }) => {
  await page.goto("/docs");
  await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Callbacks" }).click();
  await expect(page).toHaveURL(/#callbacks$/);
  await expect(page.getByRole("heading", { name: "Callbacks", level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Verifying the signature" })).toBeVisible();
  await expect(page.getByText("timingSafeEqual(given, expected)")).toBeVisible();
  const schedule = page.getByRole("table", { name: "Callback retry schedule" });
  await expect(schedule.getByRole("row", { name: /^2 5 s 0:00:05$/ })).toBeVisible();
  await expect(schedule.getByRole("row", { name: /^9 2 h 3:52:35$/ })).toBeVisible();
  await expect(schedule).toContainText("until 72 h after the first attempt");
  await expect(page.getByText(/Deduplicate by webhook-id/)).toBeVisible();
});
