// Two-factor sign-in in Chromium against the production server: enrolment on the Security page (QR code,
// key as text, one code, ten recovery codes shown once), signing in with a code (wrong and replayed codes
// each say so) and with a recovery code, an admin's reset, and the enrolment MFA_REQUIRED forces before
// anything else opens (on a server of its own with MFA_REQUIRED=admins).
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createPharmacist, signIn, type Pharmacist } from "./dashboard-helpers";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "../lib/auth/two-factor/enrol-two-factor";
import { totpCodeAt } from "../lib/auth/two-factor/totp";
import { db } from "../lib/db/prisma";
import { startTestServer } from "../tests/support/server";

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?reason=signed_out/);
}

async function enterPassword(page: Page, user: Pharmacist, path = "/transfers") {
  await page.goto(path);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The Security page's enrolment, as a person does it; returns the key and the recovery codes shown. */
async function enrolOnSecurityPage(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Scan this code with your authenticator app" })).toBeFocused();
  await expect(page.getByRole("img", { name: /QR code for your authenticator app/ })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await page.getByLabel("Code from the app").fill(totpCodeAt(secret, Date.now()));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("heading", { name: /Your recovery codes/ })).toBeFocused();
  const items = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(items).toHaveCount(10);
  const codes = await items.allInnerTexts();
  return { secret, codes };
}

test("a pharmacist enrols, then signs in with a code (wrong and replayed codes say so) and with a recovery code", async ({
  page,
}) => {
  test.setTimeout(120_000); // three sign-ins and an enrolment
  const user = await createPharmacist("Tess Totp");
  await signIn(page, user, "/transfers");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Security" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  const { secret, codes } = await enrolOnSecurityPage(page);
  await page.getByRole("link", { name: /I have saved my recovery codes/ }).click();
  await expect(page).toHaveURL(/\/transfers$/);
  await page.goto("/security");
  await expect(page.getByText(/Two-factor sign-in is on/)).toBeVisible();
  await expect(page.getByText(/Recovery codes left: 10/)).toBeVisible();
  await signOut(page);

  // Password, then the code step; nothing else opens meanwhile.
  await enterPassword(page, user, "/transfers/log");
  await expect(page).toHaveURL(/\/login\/two-factor\?callbackUrl=%2Ftransfers%2Flog$/);
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await page.goto("/transfers");
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  const code = totpCodeAt(secret, Date.now() + 30_000); // the next step: enrolment used this one
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/transfers$/);
  await signOut(page);

  // The same code again: refused as used; then a recovery code gets in.
  await enterPassword(page, user);
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already been used" })).toBeVisible();
  await page.getByLabel("Code").fill(codes[0]!.toLowerCase());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/transfers$/);
  await page.goto("/security");
  await expect(page.getByText(/Recovery codes left: 9/)).toBeVisible();
});

test("an admin resets a user's two-factor: the user's session ends and they sign in with the password alone", async ({
  page,
  browser,
}) => {
  const user = await createPharmacist("Petra Phoneless");
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  const { secret } = await startTwoFactorEnrolment(row.id);
  expect(
    (
      await confirmTwoFactorEnrolment({
        userId: row.id,
        sessionId: "ses_e2e",
        code: totpCodeAt(secret, Date.now() - 30_000),
        clientAddress: null,
      })
    ).ok,
  ).toBe(true);

  const userContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const userPage = await userContext.newPage();
  await enterPassword(userPage, user);
  await userPage.getByLabel("Code").fill(totpCodeAt(secret, Date.now()));
  await userPage.getByRole("button", { name: "Verify" }).click();
  await expect(userPage).toHaveURL(/\/transfers$/);

  const admin = await createPharmacist("Rhea Resetter", "admin");
  await signIn(page, admin, "/admin/users");
  await page.getByRole("button", { name: `Reset two-factor of ${user.email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Reset two-factor sign-in of ${user.email}?` });
  await expect(dialog).toContainText("every session of theirs ends");
  await dialog.getByRole("button", { name: "Reset two-factor" }).click();
  await expect(page.getByText(`${user.email}: two-factor sign-in reset and every session ended.`)).toBeVisible();
  expect(
    await db().auditEvent.count({
      where: { action: "user.two_factor_reset", details: { path: ["userId"], equals: row.id } },
    }),
  ).toBe(1);

  await userPage.goto("/transfers/log");
  await expect(userPage).toHaveURL(/\/login\?.*reason=revoked/);
  await userPage.getByLabel("Email").fill(user.email);
  await userPage.getByLabel("Password").fill(user.password);
  await userPage.getByRole("button", { name: "Sign in" }).click();
  await expect(userPage).toHaveURL(/\/transfers\/log$/);
  await userContext.close();
});

test("with MFA_REQUIRED=admins an admin without two-factor must enrol before anything else opens", async ({ page }) => {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL is set by e2e/global-setup.ts");
  test.setTimeout(150_000); // a server of its own starts first
  const server = await startTestServer({ databaseUrl, env: { MFA_REQUIRED: "admins", RUN_WORKER: "false" } });
  try {
    const admin = await createPharmacist("Arlo Mustenrol", "admin");
    await page.goto(`${server.baseUrl}/admin/users`);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/security\?callbackUrl=%2Fadmin%2Fusers$/);
    await expect(page.getByRole("status")).toContainText("requires two-factor sign-in for admins");
    await page.goto(`${server.baseUrl}/transfers`);
    await expect(page).toHaveURL(/\/security\?callbackUrl=%2Ftransfers$/);
    const api = await page.request.get(`${server.baseUrl}/api/transfers?limit=1`);
    expect(api.status()).toBe(403);

    await enrolOnSecurityPage(page);
    await page.getByRole("link", { name: /I have saved my recovery codes/ }).click();
    await expect(page).toHaveURL(/\/transfers$/);
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  } finally {
    await server.stop();
  }
});
