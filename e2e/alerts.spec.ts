// Alerts before the sender's 4-hour window closes, in Chromium: with transfers made "old" in the
// database, every dashboard screen shows a banner (a live region) with the count and a link to the oldest,
// and the tab title carries the count, both updating without a reload. A server and database of its own,
// so that its old transfers never show on the other tests' screens.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { expect, test } from "./fixtures";
import { createPharmacist, signIn, transferRequest } from "./dashboard-helpers";
import { createOwnDatabase, createUserWithCli } from "./own-database";
import { namedActor } from "../lib/audit/actor";
import { addStore } from "../lib/stores/add-store";
import { computeNpiCheckDigit } from "../lib/interface";
import { startTestServer, TEST_SECRETS } from "../tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "..");

async function createPartnerWithCli(databaseUrl: string): Promise<{ apiKey: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
      "scripts/cli.ts",
      "partner",
      "create",
      "--name",
      "Alert Sender",
      "--callback-url",
      "https://sender.example/cb",
      "--json",
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" } },
  );
  return JSON.parse(stdout) as { apiKey: string };
}

test("the banner and the tab title count pending transfers past an alert threshold, and link to the oldest", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const database = await createOwnDatabase("rx_e2e_alerts");
  const server = await startTestServer({
    databaseUrl: database.url,
    env: { RUN_WORKER: "false", ALERT_POLL_SECONDS: "1" },
  });
  const sql = new pg.Client({ connectionString: database.url });
  try {
    await sql.connect();
    const pharmacist = {
      email: "alma@alerts.test",
      password: `pw-${Date.now()}-alerts`,
      name: "Alma Alert, RPh",
      role: "pharmacist" as const,
    };
    await createUserWithCli(database.url, pharmacist);
    const partner = await createPartnerWithCli(database.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await page.request.post(`${server.baseUrl}/v1/transfer`, {
        data: transferRequest(),
        headers: { authorization: `senderKey ${partner.apiKey}` },
      });
      expect(res.status(), await res.text()).toBe(200);
      ids.push(((await res.json()) as { metadata: { referenceID: string } }).metadata.referenceID);
    }
    const age = (id: string, minutes: number) =>
      sql.query("UPDATE transfers SET received_at = now() - make_interval(mins => $1) WHERE id = $2", [minutes, id]);

    // Notifications: the browser's permission granted, and the real constructor watched (not replaced).
    await page.context().grantPermissions(["notifications"], { origin: server.baseUrl });
    await page.addInitScript(() => {
      const Real = window.Notification;
      const seen: { title: string; body: string }[] = [];
      (window as unknown as { notified: typeof seen }).notified = seen;
      class Watched extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          seen.push({ title, body: options?.body ?? "" });
        }
      }
      window.Notification = Watched;
    });
    const notified = () =>
      page.evaluate(() => (window as unknown as { notified: { title: string; body: string }[] }).notified);

    await page.goto(`${server.baseUrl}/login`);
    await page.getByLabel("Email").fill(pharmacist.email);
    await page.getByLabel("Password").fill(pharmacist.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
    await expect(page).toHaveTitle("Transfer queue · Rx Transfer");
    await expect(page.getByRole("link", { name: "Open the oldest" })).toHaveCount(0);

    // Off by default; each person turns it on for themselves (Security).
    await page.goto(`${server.baseUrl}/security`);
    const setting = page.getByRole("checkbox", { name: "Desktop notifications of alerts" });
    await expect(setting).not.toBeChecked();
    await setting.check();
    await page.reload();
    await expect(setting).toBeChecked();
    // The screen notifies when the count grows, not for what it finds on its first poll: that first poll
    // (no alerts yet) must be answered before the transfers grow old.
    const firstPoll = page.waitForResponse(
      (r) =>
        new URL(r.url()).pathname === "/api/transfers/alerts" &&
        r.ok() &&
        new URL(r.frame().url()).pathname === "/transfers",
    );
    await page.goto(`${server.baseUrl}/transfers`);
    await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
    await firstPoll;

    // Two transfers grow old while the pharmacist looks at the queue: no reload.
    await age(ids[0]!, 130);
    await age(ids[1]!, 190);
    const banner = page.getByRole("region", { name: "Transfer alerts" });
    // The minutes tick on a loaded machine: 3 h 10 min, or a little more by the time the banner is read.
    await expect(banner).toContainText(/2 pending transfers waiting past 3 h; the oldest has waited 3 h 1\d min\./);
    await expect(banner).toContainText(/The sender treats it as failed in [45]\d min\./);
    await expect(page).toHaveTitle("(2) Transfer queue · Rx Transfer");
    await expect.poll(notified).toEqual([
      {
        title: "Rx Transfer: transfers waiting",
        body: expect.stringContaining("2 pending transfers waiting past 3 h"),
      },
    ]);

    await banner.getByRole("link", { name: "Open the oldest" }).click();
    await expect(page).toHaveURL(new RegExp(`/transfers/${ids[1]}$`));
    // The review screen has its own title; the count stays in front of it.
    await expect(page).toHaveTitle(/^\(2\) /);

    await age(ids[2]!, 125);
    await expect(page).toHaveTitle(/^\(3\) /);
    await expect(page.getByRole("region", { name: "Transfer alerts" })).toContainText("3 pending transfers");
    await expect(page.getByRole("region", { name: "Transfer alerts" }).locator("xpath=..")).toHaveAttribute(
      "aria-live",
      "polite",
    );
    // The banner is reachable from the keyboard.
    await page.getByRole("link", { name: "Open the oldest" }).focus();
    await expect(page.getByRole("link", { name: "Open the oldest" })).toBeFocused();
  } finally {
    await sql.end();
    await server.stop();
    await database.drop();
  }
});

test("an admin sets a store's alert thresholds and opening hours; a bad value is named at its field", async ({
  page,
}) => {
  const admin = await createPharmacist("Ada Alerts", "admin");
  const body = `1${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const npi = `${body}${computeNpiCheckDigit(body)}`;
  const storeName = `Night Owl ${npi.slice(-4)}`;
  await addStore({ name: storeName, npi, actor: namedActor("e2e") });
  await signIn(page, admin, "/admin/stores");
  await page.getByRole("button", { name: `Alerts of ${storeName}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Alerts of ${storeName}` });
  await dialog.getByLabel("Alert at these ages (minutes)").fill("90, 300");
  await dialog.getByRole("button", { name: "Save alert settings" }).click();
  await expect(dialog.getByRole("alert")).toContainText("at most 239 minutes");

  await dialog.getByLabel("Alert at these ages (minutes)").fill("90, 150");
  await dialog.getByLabel("Time zone").fill("America/Chicago");
  await dialog.getByLabel("Always open (alerts at any hour)").uncheck();
  await dialog.getByLabel("Monday").fill("08:00-20:00");
  await dialog.getByLabel("Saturday").fill("09:00-13:00");
  await dialog.getByRole("button", { name: "Save alert settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Alert settings of ${storeName} saved.` })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: storeName });
  await expect(row).toContainText("at 90, 150 min; Sun closed, Mon 08:00-20:00");
  await expect(row).toContainText("(America/Chicago)");
});
