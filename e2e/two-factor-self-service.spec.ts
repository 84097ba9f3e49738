// Two-factor on the user's own Security page: new recovery codes and turning two-factor off,
// each only after a current code (a wrong one is refused), both audited; and /login visited by a
// half-signed-in session (password done, code pending) sends it on to the code step.
import { expect, test } from "./fixtures";
import { createPharmacist, signIn } from "./dashboard-helpers";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "../lib/auth/two-factor/enrol-two-factor";
import { totpCodeAt } from "../lib/auth/two-factor/totp";
import { db } from "../lib/db/prisma";

test("a signed-in user makes new recovery codes and turns two-factor off, each after a current code", async ({
  page,
}) => {
  const user = await createPharmacist("Sela Selfservice");
  await signIn(page, user, "/transfers");
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  // Enrolled a step ago, so that this step and the next are still unused.
  const { secret } = await startTwoFactorEnrolment(row.id);
  const enrolledAt = Date.now() - 30_000;
  expect(
    (
      await confirmTwoFactorEnrolment({
        userId: row.id,
        sessionId: "ses_e2e",
        code: totpCodeAt(secret, enrolledAt),
        clientAddress: null,
        now: enrolledAt,
      })
    ).ok,
  ).toBe(true);
  const oldHashes = (await db().user.findUniqueOrThrow({ where: { id: row.id } })).twoFactorRecoveryHashes;

  await page.goto("/security");
  await expect(page.getByText(/Two-factor sign-in is on/)).toBeVisible();
  const regenerateCode = page.getByLabel("Code from your app, to make new recovery codes");
  await regenerateCode.fill("000000");
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  const usedAt = Date.now();
  await regenerateCode.fill(totpCodeAt(secret, usedAt));
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  // allInnerTexts does not wait: wait for the ten new codes before reading them.
  const newCodes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(newCodes).toHaveCount(10);
  const codes = await newCodes.allInnerTexts();
  expect(new Set(codes).size).toBe(10);
  const newHashes = (await db().user.findUniqueOrThrow({ where: { id: row.id } })).twoFactorRecoveryHashes;
  expect(newHashes).toHaveLength(10);
  expect(newHashes.some((h) => oldHashes.includes(h))).toBe(false);
  expect(await db().auditEvent.count({ where: { userId: row.id, action: "auth.recovery_codes_regenerated" } })).toBe(1);

  const disableCode = page.getByLabel("Code from your app, to turn off two-factor");
  await disableCode.fill(totpCodeAt(secret, usedAt)); // the code just used: refused, a code works once
  await page.getByRole("button", { name: "Turn off two-factor" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already been used" })).toBeVisible();
  await disableCode.fill(totpCodeAt(secret, usedAt + 30_000));
  await page.getByRole("button", { name: "Turn off two-factor" }).click();
  await expect(page.getByRole("button", { name: "Set up two-factor sign-in" })).toBeVisible();
  const after = await db().user.findUniqueOrThrow({ where: { id: row.id } });
  expect(after.twoFactorEnabledAt).toBeNull();
  expect(after.twoFactorSecret).toBeNull();
  expect(await db().auditEvent.count({ where: { userId: row.id, action: "auth.two_factor_disabled" } })).toBe(1);
  expect(await db().auditEvent.count({ where: { userId: row.id, action: "auth.second_factor_failed" } })).toBe(2);
});

test("/login visited while the code is still due goes to the code step", async ({ page }) => {
  const user = await createPharmacist("Hal Halfway");
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  const { secret } = await startTwoFactorEnrolment(row.id);
  expect(
    (
      await confirmTwoFactorEnrolment({
        userId: row.id,
        sessionId: "ses_e2e",
        code: totpCodeAt(secret, Date.now()),
        clientAddress: null,
      })
    ).ok,
  ).toBe(true);
  await page.goto("/transfers/log");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\/two-factor\?/);
  await page.goto("/login?callbackUrl=%2Ftransfers%2Flog");
  await expect(page).toHaveURL(/\/login\/two-factor\?callbackUrl=%2Ftransfers%2Flog$/);
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
});
