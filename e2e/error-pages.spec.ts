// Dead ends: an address that leads nowhere, an unknown transfer, and a page that fails on the server each
// say what happened in the app's own look, with the ways back.
import pg from "pg";
import { expect, test } from "./fixtures";
import { createPharmacist, signIn } from "./dashboard-helpers";
import { createOwnDatabase, createUserWithCli } from "./own-database";
import { startTestServer } from "../tests/support/server";

test("an unknown address says so, inside the app's look, with the ways back", async ({ page }) => {
  const pharmacist = await createPharmacist("Nowhere Ned, RPh");
  await signIn(page, pharmacist);
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/Page not found/);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByText("This page could not be found")).toHaveCount(0);
  const ways = main.getByRole("navigation", { name: "Ways back" });
  await expect(ways.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  const queue = ways.getByRole("link", { name: "Go to the transfer queue" });
  await queue.focus();
  await expect(queue).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
});

test("an unknown transfer says there is none with this reference and offers the queue's search", async ({ page }) => {
  const pharmacist = await createPharmacist("Missing Mo, PharmD");
  await signIn(page, pharmacist);
  for (const path of ["/transfers/trf_doesnotexist", "/transfers/trf_doesnotexist/record"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    // Inside the dashboard's frame: its header and navigation stay.
    await expect(page.getByRole("banner")).toContainText("Missing Mo, PharmD");
    await expect(page.getByRole("heading", { level: 1, name: "No transfer with this reference" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("trf_doesnotexist");
  }
  const search = page.getByRole("search", { name: "Search transfers" });
  await expect(search.getByRole("textbox")).toHaveValue("trf_doesnotexist");
  await search.getByRole("button", { name: "Search the queue" }).click();
  await expect(page).toHaveURL(/\/transfers\?q=trf_doesnotexist$/);
  await expect(page.locator("#queue-search")).toHaveValue("trf_doesnotexist");
});

// An error page must be reached without a door a user could open too, so this server gets a database of its
// own and loses a table, as after a failed migration: a page that reads it fails on the server, for real.
// (global-error.tsx replaces the root layout, which reads no data and cannot fail this way; see
// tests/unit/global-error.test.ts.)
test("a page that fails on the server shows the error page with a reference, and Try again recovers", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const database = await createOwnDatabase("rx_e2e_errors");
  const server = await startTestServer({ databaseUrl: database.url, env: { RUN_WORKER: "false" } });
  const sql = new pg.Client({ connectionString: database.url });
  try {
    await sql.connect();
    const pharmacist = {
      email: "erin@errors.test",
      password: `pw-${Date.now()}-errors`,
      name: "Erin Error, RPh",
      role: "pharmacist" as const,
    };
    await createUserWithCli(database.url, pharmacist);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByLabel("Email").fill(pharmacist.email);
    await page.getByLabel("Password").fill(pharmacist.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();

    // The queue page reads the senders (partners) as it renders on the server; the frame reads only the user.
    await sql.query("ALTER TABLE partners RENAME TO partners_gone");
    await page.goto(`${server.baseUrl}/transfers`);
    await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText("Erin Error, RPh");
    // The reference to quote is the digest the server logged with the error.
    const reference = await page.getByRole("main").locator("code").textContent();
    expect(reference).toMatch(/^\w+$/);
    expect(server.output()).toContain(reference!);
    await expect(
      page.getByRole("navigation", { name: "Ways back" }).getByRole("link", { name: "Go to the transfer queue" }),
    ).toBeVisible();

    await sql.query("ALTER TABLE partners_gone RENAME TO partners");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();

    // Without the users table the dashboard's frame itself fails: the root error page, on its own.
    await sql.query("ALTER TABLE users RENAME TO users_gone");
    await page.goto(`${server.baseUrl}/transfers`);
    await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
    await expect(page.getByRole("banner")).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    await sql.query("ALTER TABLE users_gone RENAME TO users");
  } finally {
    await sql.end();
    await server.stop();
    await database.drop();
  }
});
