// Single sign-on in Chromium against the production server and a real OpenID Connect provider
// (oidc-provider, tests/support/oidc-provider.ts) on 127.0.0.1: the whole redirect flow, with the dashboard
// opened at 127.0.0.1 and PUBLIC_URL naming it (the redirect URI must be PUBLIC_URL's, not the localhost
// Next names the request with), for a first
// sign-in that links a user, an unknown user, a disabled user, a mapped role claim, signing out, and a
// tampered state or nonce; then a provider that cannot be reached (server of its own).
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createPharmacist, forgetSession, type Pharmacist } from "./dashboard-helpers";
import { db } from "../lib/db/prisma";
import {
  OIDC_TEST_ROLE_CLAIM,
  reserveOidcIssuer,
  startOidcProvider,
  type RunningOidcProvider,
} from "../tests/support/oidc-provider";
import { freePort, startTestServer, type TestServer } from "../tests/support/server";

const IDP = "Test IdP";
let server: TestServer;
let provider: RunningOidcProvider;
/**
 * The server as the browser addresses it, and its PUBLIC_URL: 127.0.0.1, which Next names `localhost` in
 * the URLs its route handlers see. The provider knows only this redirect URI: a token request that says
 * localhost (next-auth without PUBLIC_URL) is answered invalid_grant.
 */
let base: string;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL is set by e2e/global-setup.ts");
  const reservation = await reserveOidcIssuer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startTestServer({
    databaseUrl,
    port,
    env: {
      ...reservation.env,
      PUBLIC_URL: base,
      OIDC_NAME: IDP,
      OIDC_ROLE_CLAIM: OIDC_TEST_ROLE_CLAIM,
      RUN_WORKER: "false",
      SESSION_IDLE_MINUTES: "15",
    },
  });
  provider = await startOidcProvider({ ...reservation, redirectUri: `${base}/api/auth/callback/oidc` });
});

test.afterAll(async () => {
  await provider?.stop();
  await server?.stop();
});

/** A provider account for `user` (its login on the provider's page is returned). */
function account(user: Pharmacist, claims: { email_verified?: boolean; role?: unknown } = {}): string {
  const sub = `sub-${user.email}`;
  provider.addAccount({
    sub,
    email: user.email.toUpperCase(),
    email_verified: claims.email_verified ?? true,
    name: user.name,
    [OIDC_TEST_ROLE_CLAIM]: claims.role ?? "pharmacist",
  });
  return sub;
}

/** From our sign-in page through the provider's login and consent pages, back to us. */
async function signInThroughProvider(page: Page, login: string, path = "/transfers") {
  await page.goto(`${base}${path}`);
  await expect(page).toHaveURL(/\/login\?/);
  await page.getByRole("button", { name: `Sign in with ${IDP}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/**
 * The provider's redirect lands here from another site, so the app's rule for pages opened from another
 * site applies (require-user.ts): the person confirms once on /continue.
 */
async function continueTo(page: Page, path: string) {
  await expect(page).toHaveURL(`${base}/continue?${new URLSearchParams({ to: path })}`);
  await page.getByRole("link", { name: `Continue to ${path}` }).click();
  await expect(page).toHaveURL(`${base}${path}`);
}

test("a first sign-in links the user by verified email and opens a session like a password sign-in", async ({
  page,
}) => {
  const user = await createPharmacist("Olive Oidc");
  await signInThroughProvider(page, account(user), "/transfers/log");
  await continueTo(page, "/transfers/log");
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  const event = await db().auditEvent.findFirstOrThrow({
    where: { userId: row.id, action: "auth.signed_in" },
    orderBy: { id: "desc" },
  });
  expect(event.details).toMatchObject({ method: "oidc", issuer: provider.issuer, subject: `sub-${user.email}` });
  const sessionId = (event.details as { sessionId: string }).sessionId;
  expect(await db().userSession.count({ where: { id: sessionId, userId: row.id, secondFactor: null } })).toBe(1);
  // The password still works for the same user: linking changed nothing else.
  expect(await db().user.count({ where: { email: user.email } })).toBe(1);
});

test("sign-out ends the SSO session on the server", async ({ page }) => {
  const user = await createPharmacist("Simon Signout");
  await signInThroughProvider(page, account(user));
  await continueTo(page, "/transfers");
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  expect(await db().userSession.count({ where: { userId: row.id } })).toBe(1);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?reason=signed_out/);
  expect(await db().userSession.count({ where: { userId: row.id } })).toBe(0);
  await page.goto(`${base}/transfers`);
  await expect(page).toHaveURL(/\/login\?/);
});

test("an unknown user is refused (OIDC_AUTO_CREATE is not set) and no user is made", async ({ page }) => {
  const known = await createPharmacist("Stan Stranger");
  const stranger: Pharmacist = { ...known, email: `not-${known.email}` };
  await signInThroughProvider(page, account(stranger));
  await expect(page).toHaveURL(/\/login\?.*sso=unknown_user/);
  await expect(
    page.getByRole("alert").filter({ hasText: `Your ${IDP} account is not a user of this service` }),
  ).toBeVisible();
  expect(await db().user.count({ where: { email: stranger.email } })).toBe(0);
  const refused = await db().auditEvent.findFirstOrThrow({
    where: { action: "auth.sign_in_refused", actor: "unknown" },
    orderBy: { id: "desc" },
  });
  expect(refused.details).toMatchObject({ method: "oidc", reason: "unknown_user" });
});

test("an unverified email is not linked", async ({ page }) => {
  const user = await createPharmacist("Una Unverified");
  await signInThroughProvider(page, account(user, { email_verified: false }));
  await expect(page).toHaveURL(/\/login\?.*sso=email_unverified/);
  await expect(
    page.getByRole("alert").filter({ hasText: "did not confirm that your email address is verified" }),
  ).toBeVisible();
});

test("a disabled user is refused whatever the provider says", async ({ page }) => {
  const user = await createPharmacist("Dora Disabled");
  await db().user.update({ where: { email: user.email }, data: { disabledAt: new Date() } });
  await signInThroughProvider(page, account(user));
  await expect(page).toHaveURL(/\/login\?.*sso=disabled/);
  await expect(page.getByRole("alert").filter({ hasText: "This account is disabled" })).toBeVisible();
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  expect(await db().userSession.count({ where: { userId: row.id } })).toBe(0);
});

test("the role claim is mapped (admin), and an unknown claim value is refused, not defaulted", async ({ page }) => {
  const user = await createPharmacist("Rolf Roleclaim");
  await signInThroughProvider(page, account(user, { role: ["staff", "admin"] }), "/admin/users");
  await continueTo(page, "/admin/users");
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  expect(row.role).toBe("admin");
  expect(
    await db().auditEvent.count({
      where: { action: "user.role_changed", actor: "oidc", details: { path: ["userId"], equals: row.id } },
    }),
  ).toBe(1);

  const other = await createPharmacist("Ugo Unknownrole");
  await forgetSession(page);
  await signInThroughProvider(page, account(other, { role: "superuser" }));
  await expect(page).toHaveURL(/\/login\?.*sso=role_claim/);
  await expect(page.getByRole("alert").filter({ hasText: "no role this service knows" })).toBeVisible();
  expect((await db().user.findUniqueOrThrow({ where: { email: other.email } })).role).toBe("pharmacist");
});

test("a tampered state is refused", async ({ page, browser }) => {
  const user = await createPharmacist("Tamara State");
  // Login CSRF: the provider's answer arrives in a browser whose state cookie belongs to another sign-in
  // (an attacker's flow started elsewhere). The state in the answer no longer matches, so no session.
  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto(`${base}/login`);
    await other.getByRole("button", { name: `Sign in with ${IDP}` }).click();
    await expect(other).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    const foreign = (await elsewhere.cookies(base)).filter((c) => c.name.endsWith("authjs.state"));
    expect(foreign).toHaveLength(1);

    await page.goto(`${base}/transfers`);
    await page.getByRole("button", { name: `Sign in with ${IDP}` }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    const own = (await page.context().cookies(base)).find((c) => c.name === foreign[0]!.name);
    expect(own?.value).toBeTruthy();
    expect(own!.value).not.toBe(foreign[0]!.value);
    await page.context().addCookies(foreign);

    await page.getByPlaceholder("Enter any login").fill(account(user));
    await page.getByPlaceholder("and password").fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/login\?.*error=/);
    await expect(
      page.getByRole("alert").filter({ hasText: `Single sign-on with ${IDP} did not complete` }),
    ).toBeVisible();
    const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
    expect(await db().userSession.count({ where: { userId: row.id } })).toBe(0);
  } finally {
    await elsewhere.close();
  }
});

test("a tampered nonce is refused", async ({ page }) => {
  const user = await createPharmacist("Nina Nonce");
  // The provider is asked for another nonce than the one in our cookie: the ID token it signs carries that one.
  await page.route(`${provider.issuer}/auth?**`, async (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set("nonce", "not-the-nonce-we-sent");
    await route.continue({ url: url.toString() });
  });
  await signInThroughProvider(page, account(user));
  await expect(page).toHaveURL(/\/login\?.*error=/);
  await expect(
    page.getByRole("alert").filter({ hasText: `Single sign-on with ${IDP} did not complete` }),
  ).toBeVisible();
  const row = await db().user.findUniqueOrThrow({ where: { email: user.email } });
  expect(await db().userSession.count({ where: { userId: row.id } })).toBe(0);
});

test("an issuer that cannot be reached: the button says unavailable, password sign-in works, logged once", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const databaseUrl = process.env.E2E_DATABASE_URL!;
  const issuer = `http://127.0.0.1:${await freePort()}`;
  const port = await freePort();
  const own = await startTestServer({
    databaseUrl,
    port,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: "rx",
      OIDC_CLIENT_SECRET: "s",
      OIDC_NAME: "Down IdP",
      RUN_WORKER: "false",
    },
  });
  try {
    const user = await createPharmacist("Paula Password");
    for (let i = 0; i < 2; i++) {
      await page.goto(`${own.baseUrl}/login`);
      const button = page.getByRole("button", { name: "Sign in with Down IdP (unavailable)" });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(/single sign-on is unavailable/);
    }
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(`${own.baseUrl}/transfers`);
    expect(own.output().match(/sso provider unavailable/g)).toHaveLength(1);
  } finally {
    await own.stop();
  }
});
