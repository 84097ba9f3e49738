// Sign-in, anonymous access refused, and automatic logoff after inactivity, in Chromium.
import { expect, test } from "./fixtures";
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";

test("the anonymous are refused: pages go to the sign-in page, the dashboard API answers 401", async ({
  page,
  request,
}) => {
  for (const path of ["/transfers", "/transfers/trf_anything", "/transfers/trf_anything/record", "/admin"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login\?callbackUrl=/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  }
  for (const path of ["/api/transfers", "/api/transfers/trf_anything", "/api/transfers/trf_anything/status"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(401);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
  }
  const decide = await request.post("/api/transfers/trf_anything/approve", { data: {} });
  expect(decide.status()).toBe(401);
});

test("signing in brings the pharmacist back to the page asked for; a wrong password says so", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Sasha Ng, PharmD");
  const partner = await createSender();
  const referenceID = await sendTransfer(request, partner, transferRequest());

  await page.goto(`/transfers/${referenceID}`);
  await expect(page).toHaveURL(/\/login\?/);
  await page.getByLabel("Email").fill(pharmacist.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect" })).toBeVisible();

  await page.getByLabel("Password").fill(pharmacist.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/transfers/${referenceID}$`));
  await expect(page.getByText(`Signed in as`, { exact: false })).toBeAttached();
  await expect(page.getByRole("banner")).toContainText("Sasha Ng, PharmD");
});

test("after inactivity the session ends on its own: a warning, then the sign-in page saying why", async ({ page }) => {
  const idleMs = Number(process.env.E2E_SESSION_IDLE_MINUTES) * 60_000;
  test.setTimeout(idleMs + 60_000);
  const pharmacist = await createPharmacist("Idle Ida, RPh");
  await signIn(page, pharmacist);
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();

  // No input from now on: the queue keeps refreshing itself, which is not activity.
  const warning = page.getByRole("alertdialog", { name: "Still there?" });
  await expect(warning).toBeVisible({ timeout: idleMs });
  await expect(page).toHaveURL(/\/login\?.*reason=idle/, { timeout: idleMs });
  await expect(page.getByRole("status").filter({ hasText: /signed out after .* without activity/ })).toBeVisible();

  // The session is gone on the server too.
  await page.goto("/transfers");
  await expect(page).toHaveURL(/\/login\?/);
  const api = await page.request.get("/api/transfers");
  expect(api.status()).toBe(401);
});

test("the idle warning's button keeps the session", async ({ page }) => {
  const idleMs = Number(process.env.E2E_SESSION_IDLE_MINUTES) * 60_000;
  test.setTimeout(idleMs + 60_000);
  const pharmacist = await createPharmacist("Awake Al, PharmD");
  await signIn(page, pharmacist);
  const warning = page.getByRole("alertdialog", { name: "Still there?" });
  await expect(warning).toBeVisible({ timeout: idleMs });
  await warning.getByRole("button", { name: "Stay signed in" }).click();
  await expect(warning).toBeHidden();
  await page.waitForTimeout(idleMs / 2);
  await expect(page).toHaveURL(/\/transfers$/);
  expect((await page.request.get("/api/transfers")).status()).toBe(200);
});

test("Sign out says signed out even when the queue's refresh meets the ended session first", async ({ page }) => {
  const pharmacist = await createPharmacist("Sid Slowlogout");
  await signIn(page, pharmacist);
  await expect(page).toHaveURL(/\/transfers$/);
  // The server ends the session at once, but its answer reaches the page only after the queue's next
  // refresh (every 5 s) has been refused with 401: that refusal must not take the page to the sign-in page
  // without "signed out" (CI once saw "revoked" there).
  const refused = page.waitForResponse((r) => r.url().includes("/api/transfers") && r.status() === 401, {
    timeout: 15_000,
  });
  await page.route("**/api/session/logout", async (route) => {
    const answer = await route.fetch();
    await refused;
    // Time for a way to the sign-in page that the refusal took to arrive there before the answer does.
    await page.waitForURL(/\/login/, { timeout: 2_000 }).catch(() => {});
    await route.fulfill({ response: answer }).catch(() => {}); // the page may have left already (the bug)
  });
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await refused;
  await expect(page).toHaveURL(/\/login\?reason=signed_out/);
});

test("signing out everywhere ends the pharmacist's session in another browser too", async ({ page, browser }) => {
  const pharmacist = await createPharmacist("Eve Everywhere");
  await signIn(page, pharmacist);
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, pharmacist);

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Sign out all my sessions?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Sign out all my sessions" }).click();
    await expect(page).toHaveURL(/\/login\?reason=signed_out/);

    await otherPage.goto("/transfers");
    await expect(otherPage).toHaveURL(/\/login\?.*reason=revoked/);
    await expect(otherPage.getByRole("status")).toContainText("no longer valid");
  } finally {
    await other.close();
  }
});
