// Sign-in before the page has hydrated, or with scripts blocked: the form is a Server Action posted by
// The browser itself, which must work (it answered 500 under `Referrer-Policy: no-referrer`).
import { expect, test } from "./fixtures";
import { createPharmacist } from "./dashboard-helpers";

test.use({ javaScriptEnabled: false });

test("without JavaScript, a wrong password says so and the right one lands on the queue", async ({ page }) => {
  const pharmacist = await createPharmacist("Noscript Nia, RPh");
  await page.goto("/transfers");
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);

  await page.getByLabel("Email").fill(pharmacist.email);
  await page.getByLabel("Password").fill("not the password");
  const refused = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login",
  );
  await page.getByRole("button", { name: "Sign in" }).click();
  expect((await refused).status()).toBeLessThan(500);
  await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect" })).toBeVisible();

  await page.getByLabel("Email").fill(pharmacist.email);
  await page.getByLabel("Password").fill(pharmacist.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/transfers$/);
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("Noscript Nia, RPh");
});
