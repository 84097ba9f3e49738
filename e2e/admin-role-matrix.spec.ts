// The role matrix in a real browser, for pages: every page.tsx under app/ (route groups add no segment),
// opened by the anonymous, a pharmacist and an admin, lands where lib/auth/access-policy.ts says. (Every
// route and method over plain HTTP: tests/integration/role-matrix.test.ts.)
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  connect,
  createPharmacist,
  createSender,
  forgetSession,
  sendTransfer,
  signIn,
  transferRequest,
} from "./dashboard-helpers";
import { accessRuleFor, isAllowed, type Role } from "../lib/auth/access-policy";
import { db } from "../lib/db/prisma";

const APP_DIR = path.resolve(import.meta.dirname, "../app");

function pagePatterns(dir = APP_DIR, segments: string[] = []): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_") || entry.name.startsWith("@")) continue;
      found.push(
        ...pagePatterns(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]),
      );
    } else if (/^page\.(tsx|ts|jsx|js)$/.test(entry.name)) {
      found.push(`/${segments.join("/")}`);
    }
  }
  return found.sort();
}

/** Pages that send a signed-in visitor on by themselves. */
// /login/two-factor: a session whose second factor is done goes on (tests/security/two-factor.test.ts covers the step).
const OWN_REDIRECTS: Record<string, string> = {
  "/": "/transfers",
  "/login": "/transfers",
  "/login/two-factor": "/transfers",
};

async function visitAll(page: Page, role: Role | "anonymous", samples: Record<string, string>): Promise<string[]> {
  const failures: string[] = [];
  for (const pattern of pagePatterns()) {
    const urlPath = pattern.replace(/\[[^\]]+\]/g, (segment) => {
      const value = samples[segment];
      if (value === undefined)
        throw new Error(`admin-role-matrix.spec.ts needs a sample value for ${segment} (in ${pattern})`);
      return value;
    });
    await page.goto(urlPath);
    const landed = new URL(page.url());
    const allowed = isAllowed(accessRuleFor(urlPath), role === "anonymous" ? null : role);
    const where = `${role} opening ${urlPath} landed on ${landed.pathname}${landed.search}`;
    if (allowed) {
      const expected = role !== "anonymous" && OWN_REDIRECTS[urlPath] ? OWN_REDIRECTS[urlPath] : urlPath;
      if (landed.pathname !== expected) failures.push(`${where}, expected ${expected}`);
    } else if (role === "anonymous") {
      if (landed.pathname !== "/login" || landed.searchParams.get("callbackUrl") !== urlPath)
        failures.push(`${where}, expected the sign-in page`);
    } else {
      // The queue says why (it tidies its own URL afterwards, so the notice is what to look for).
      if (landed.pathname !== "/transfers") failures.push(`${where}, expected the queue with a notice`);
      else
        await expect(
          page.getByRole("alert").filter({ hasText: `Your role (${role}) cannot open ${urlPath}` }),
        ).toBeVisible();
    }
  }
  return failures;
}

/** A store this service receives for (the suite's server has one from its start). */
async function receivingStoreId(): Promise<string> {
  connect();
  return (await db().store.findFirstOrThrow({ select: { id: true }, orderBy: { createdAt: "asc" } })).id;
}

test("every page lands where the access policy says, for the anonymous, a pharmacist and an admin", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const partner = await createSender();
  const samples = {
    "[referenceID]": await sendTransfer(request, partner, transferRequest()),
    "[partnerId]": partner.partnerId,
    "[storeId]": await receivingStoreId(),
  };
  expect(pagePatterns()).toEqual(
    expect.arrayContaining(["/admin", "/admin/audit", "/admin/partners/[partnerId]", "/transfers"]),
  );

  expect(await visitAll(page, "anonymous", samples)).toEqual([]);

  const pharmacist = await createPharmacist("Matrix Pharmacist, RPh");
  await signIn(page, pharmacist);
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Admin" })).toHaveCount(0);
  expect(await visitAll(page, "pharmacist", samples)).toEqual([]);

  await forgetSession(page);
  const admin = await createPharmacist("Matrix Admin", "admin");
  await signIn(page, admin);
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Admin" })).toBeVisible();
  expect(await visitAll(page, "admin", samples)).toEqual([]);
});
