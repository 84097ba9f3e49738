// The admin screens in Chromium against the production server: a partner and its key (shown once, copied,
// used, revoked), users and the last-admin rule, and the audit log (filters, CSV export, chain check).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { createPharmacist, signIn, transferRequest } from "./dashboard-helpers";
import { db } from "../lib/db/prisma";
import { computeNpiCheckDigit } from "../lib/interface";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

function randomNpi(): string {
  const body = `1${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

test("an admin creates a partner and an API key (shown once, copied), which works until the admin revokes it", async ({
  page,
  request,
}) => {
  const admin = await createPharmacist("Ada Admin", "admin");
  await signIn(page, admin, "/transfers");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Admin" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Partners" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Partners" })).toBeVisible();

  // The form says what is wrong, next to the field.
  const form = page.getByRole("form", { name: "Add a partner" });
  await form.getByLabel("Callback URL").fill("not a url");
  await form.getByRole("button", { name: "Create partner" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Enter the partner's name" })).toBeVisible();
  await expect(form.getByRole("alert").filter({ hasText: "absolute http(s) URL" })).toBeVisible();

  const name = `Acme Mail Order ${randomUUID().slice(0, 6)}`;
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Callback URL").fill("https://rx-callbacks.acme-mail.example/transfers");
  await form.getByRole("button", { name: "Create partner" }).click();
  const createdPanel = page.getByRole("region", { name: `Partner ${name} created: its credentials` });
  await expect(createdPanel).toBeVisible();
  await expect(createdPanel).toContainText("it will not be shown again");
  await expect(createdPanel.getByLabel("Webhook signing secret")).toHaveValue(/^whsec_/);
  await createdPanel.getByRole("link", { name: `Open ${name}` }).click();

  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  await page.getByRole("button", { name: "Create API key" }).click();
  const panel = page.getByRole("region", { name: `New API key for ${name}` });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText("it will not be shown again");
  const apiKey = await panel.getByLabel("API key", { exact: true }).inputValue();
  expect(apiKey).toMatch(/^rxk_[0-9A-Za-z]+$/);
  await panel.getByRole("button", { name: "Copy API key" }).click();
  await expect(panel.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);

  // The sending pharmacy uses the key.
  const accepted = await request.post("/v1/transfer", {
    data: transferRequest(),
    headers: { authorization: `senderKey ${apiKey}` },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // Once dismissed, the key is gone from the page; the list shows only its first and last characters.
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(panel).toBeHidden();
  expect(await page.content()).not.toContain(apiKey);
  const display = `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`;
  const keys = page.getByRole("table", { name: `API keys of ${name}` });
  const row = keys.getByRole("row").filter({ hasText: display });
  await expect(row).toContainText("Active");

  // Revoking asks first; Esc cancels and nothing happens.
  await row.getByRole("button", { name: `Revoke key ${display}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Revoke key ${display}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  const stillWorks = await request.post("/v1/transfer", {
    data: transferRequest(),
    headers: { authorization: `senderKey ${apiKey}` },
  });
  expect(stillWorks.status()).toBe(200);

  await row.getByRole("button", { name: `Revoke key ${display}` }).click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Key ${display} revoked` })).toBeVisible();
  await expect(row).toContainText("Revoked");

  const refused = await request.post("/v1/transfer", {
    data: transferRequest(),
    headers: { authorization: `senderKey ${apiKey}` },
  });
  expect(refused.status()).toBe(401);

  // Traffic shows what was received; after a reload the key is still never shown.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  const traffic = page.getByRole("region", { name: "Traffic and callbacks" });
  await expect(traffic.locator("div", { hasText: "Transfers received, last 24 h" }).locator("dd")).toHaveText("2");
  await expect(
    page
      .getByRole("table", { name: `API keys of ${name}` })
      .getByRole("row")
      .filter({ hasText: display }),
  ).toContainText("Revoked");
  expect(await page.content()).not.toContain(apiKey);
});

test("an admin creates a user and changes their role", async ({ page }) => {
  const admin = await createPharmacist("Uma Users", "admin");
  await signIn(page, admin, "/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Enter an email address" })).toBeVisible();
  await expect(form.getByRole("alert").filter({ hasText: "at least 8 characters" })).toBeVisible();

  const email = `new-pharmacist-${randomUUID().slice(0, 8)}@e2e.example`;
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name", { exact: true }).fill("Nia New, PharmD");
  await form.getByLabel("Role").selectOption("pharmacist");
  await form.getByLabel("Initial password").fill(`pw-${randomUUID()}`);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `User ${email} created as pharmacist` })).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Pharmacist");
  await row.getByRole("button", { name: `Change role of ${email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Change the role of ${email}?` });
  await expect(dialog.getByLabel("New role")).toBeFocused();
  await dialog.getByLabel("New role").selectOption("admin");
  await dialog.getByRole("button", { name: "Change role" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `${email} is now admin` })).toBeVisible();
  await expect(row).toContainText("Admin");
});

test("an admin ends a user's sessions: the user's browser is signed out, nothing else changes", async ({
  page,
  browser,
}) => {
  const admin = await createPharmacist("Ada Sessions", "admin");
  const pharmacist = await createPharmacist("Pat Sessions");
  const theirs = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const theirPage = await theirs.newPage();
    await signIn(theirPage, pharmacist);
    await signIn(page, admin, "/admin/users");
    const row = page.getByRole("row").filter({ hasText: pharmacist.email });
    await row.getByRole("button", { name: `End sessions of ${pharmacist.email}` }).click();
    const dialog = page.getByRole("alertdialog", { name: `End every session of ${pharmacist.email}?` });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "End sessions" }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole("status").filter({ hasText: `${pharmacist.email}: 1 open session ended` }),
    ).toBeVisible();
    await expect(row).toContainText("Active");

    await theirPage.goto("/transfers");
    await expect(theirPage).toHaveURL(/\/login\?.*reason=revoked/);
  } finally {
    await theirs.close();
  }
});

test("the last active admin cannot be disabled, and the screen says why", async ({ page }) => {
  const admin = await createPharmacist("Lone Admin", "admin");
  // Make this admin the only active one for the duration of the test.
  const others = await db().user.findMany({
    where: { role: "admin", disabledAt: null, email: { not: admin.email } },
    select: { id: true },
  });
  await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: new Date() } });
  try {
    await signIn(page, admin, "/admin/users");
    const row = page.getByRole("row").filter({ hasText: admin.email });
    await expect(row).toContainText("(you)");
    await expect(row).toContainText("the only active admin");
    await row.getByRole("button", { name: `Disable ${admin.email}` }).click();
    const dialog = page.getByRole("alertdialog", { name: `Disable ${admin.email}?` });
    await expect(dialog).toContainText("This is your own account");
    await dialog.getByRole("button", { name: "Disable user" }).click();
    await expect(dialog.getByRole("alert")).toContainText("last active admin: make another user admin first");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("Active");
    const me = await db().user.findUniqueOrThrow({ where: { email: admin.email } });
    expect(me.disabledAt).toBeNull();
  } finally {
    await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: null } });
  }
});

test("the audit log lists what an admin just did, filters by action, exports CSV and verifies its chain", async ({
  page,
}) => {
  const admin = await createPharmacist("Audrey Audit", "admin");
  await signIn(page, admin, "/admin/stores");

  // Two admin actions to look for: add a store, then remove it.
  const npi = randomNpi();
  const storeName = `Riverside Annex ${randomUUID().slice(0, 4)}`;
  const form = page.getByRole("form", { name: "Add a store" });
  await form.getByLabel("Store name").fill(storeName);
  await form.getByLabel("NPI", { exact: true }).fill(npi);
  await form.getByRole("button", { name: "Add store" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Store ${storeName} (NPI ${npi}) added` })).toBeVisible();
  await page.getByRole("button", { name: `Remove store ${storeName}` }).click();
  await page
    .getByRole("alertdialog", { name: `Remove store ${storeName}?` })
    .getByRole("button", { name: "Remove store" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `Store ${storeName} removed` })).toBeVisible();

  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const table = page.getByRole("table");
  const mine = table.getByRole("row").filter({ hasText: admin.email });
  await expect(mine.filter({ hasText: "store.added" }).filter({ hasText: npi })).toHaveCount(1);
  await expect(mine.filter({ hasText: "store.removed" }).filter({ hasText: npi })).toHaveCount(1);

  // Filter: this admin's store.added records only.
  await page.getByLabel("User", { exact: true }).fill(admin.email);
  await page.getByLabel("Action", { exact: true }).selectOption("store.added");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=store.added/);
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("store.added");
  await expect(rows.first()).toContainText(npi);

  // The CSV export has the same rows.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-[\d-]+\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(lines[0]).toBe(
    '"id","at","actor","user_id","action","transfer_id","client_address","details","prev_hash","hash"',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`"${admin.email}"`);
  expect(lines[1]).toContain('"store.added"');
  expect(lines[1]).toContain(npi);

  // The chain check.
  await page.getByRole("button", { name: "Verify chain" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Chain intact: all [\d,]+ records verified/ })).toBeVisible();
});
