// Administration → Stores → "Immediate confirmation" in Chromium: the plain-words statement, the 7-day figures
// of what the policy would have done (with real drug names), turning the policy on by keyboard alone (the owner,
// state and board rule required, each refusal said), the new version and its audit row, and axe at desktop and
// at 320 px.
import { randomInt, randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./axe";
import { connect, createPharmacist, createSender, signIn, transferRequest } from "./dashboard-helpers";
import { CLI_ACTOR } from "../lib/audit/actor";
import { db } from "../lib/db/prisma";
import { addStore } from "../lib/stores/add-store";
import { computeNpiCheckDigit } from "../lib/interface";
import { receiveTransfer } from "../lib/transfers/intake";
import type { TransferRequest } from "../lib/interface";

test("an admin turns immediate confirmation on by keyboard, after reading what it would have done", async ({
  page,
}) => {
  // Three axe runs and two page sizes on a shared machine.
  test.setTimeout(180_000);
  const owner = await createPharmacist(`Imogen Pic ${randomUUID().slice(0, 4)}, PharmD`);
  const admin = await createPharmacist("Ada Policy", "admin");
  const partner = await createSender();
  connect();
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const npi = `${body}${computeNpiCheckDigit(body)}`;
  const storeName = `Policy Store ${randomUUID().slice(0, 4)}`;
  const store = await addStore({ name: storeName, npi, dea: null, actor: CLI_ACTOR });

  // Last week's transfers to the store: atorvastatin with no known allergies qualifies; oxycodone and a listed
  // penicillin allergy do not.
  const receive = async (change: (r: TransferRequest) => void) => {
    const outcome = await receiveTransfer(
      partner.partnerId,
      transferRequest((r) => {
        r.receivingPharmacy.npi = npi;
        r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
        change(r);
      }),
    );
    expect(outcome.kind).toBe("created");
  };
  await receive(() => {});
  await receive((r) => {
    r.prescription.medicationName = "Oxycodone Hydrochloride";
    r.prescription.drugStrength = "5 mg";
  });
  await receive((r) => {
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
  });

  await signIn(page, admin, "/admin/stores");
  const link = page.getByRole("link", { name: `Immediate confirmation of ${storeName}` });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("heading", { level: 1, name: `Immediate confirmation: ${storeName} (${npi})` }),
  ).toBeVisible();
  await expect(page.getByText("Policy v0, off.", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Federal law excludes controlled substances/)).toBeVisible();
  await expect(
    page.getByText(/^Some states require a pharmacist \(or intern\) to receive each transfer/),
  ).toBeVisible();
  await expect(page.getByText(/^Check your board's rule before turning this on/)).toBeVisible();
  await expect(page.getByTestId("simulation")).toHaveText("Last 7 days: 1 of 3 would have qualified.");
  const reasons = page.getByRole("region", { name: "What it would have done" }).getByRole("listitem");
  await expect(reasons).toHaveCount(2);
  await expect(reasons.filter({ hasText: /^1: controlled substance$/ })).toHaveCount(1);
  await expect(reasons.filter({ hasText: /^1: the patient has listed allergies or none on file$/ })).toHaveCount(1);
  await expectNoSeriousAxeViolations(page, "the immediate confirmation page");

  // On, by keyboard: each missing setting is refused in words, and nothing is saved until all are given.
  const status = page.getByRole("status").filter({ hasText: /\S/ });
  await page.getByRole("checkbox", { name: "Confirm qualifying transfers at once" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: "Confirm qualifying transfers at once" })).toBeChecked();
  await page.getByRole("button", { name: "Save policy" }).focus();
  await page.keyboard.press("Enter");
  await expect(status).toContainText("name the pharmacist-in-charge who owns the policy");

  await page.getByRole("combobox", { name: "Pharmacist-in-charge who owns the policy" }).focus();
  await page.keyboard.type(owner.name.slice(0, 12));
  await expect(page.getByRole("combobox", { name: "Pharmacist-in-charge who owns the policy" })).toHaveValue(/\S/);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "The store's state (two letters)" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(status).toContainText("the store's state is required to turn it on");
  await page.keyboard.type("tx");
  await page.keyboard.press("Enter");
  await expect(status).toContainText("the board rule the store relies on is required");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "The board rule the store relies on (required)" })).toBeFocused();
  await page.keyboard.type("22 TAC 291.34(g): electronic transfers between pharmacies");
  await page.getByRole("button", { name: "Save policy" }).focus();
  await page.keyboard.press("Enter");
  await expect(status).toHaveText("Saved: policy v1, on.");
  await expect(page.getByText("Policy v1, on.", { exact: true })).toBeVisible();

  const policy = await db().immediateConfirmPolicy.findUniqueOrThrow({ where: { storeId: store.storeId } });
  const ownerRow = await db().user.findUniqueOrThrow({ where: { email: owner.email } });
  expect(policy).toMatchObject({ version: 1, enabled: true, ownerUserId: ownerRow.id, state: "TX" });
  const audit = await db().auditEvent.findMany({
    where: { action: "store.immediate_confirm_changed", details: { path: ["storeId"], equals: store.storeId } },
  });
  expect(audit).toHaveLength(1);
  expect(audit[0]!.actor).toBe(admin.email);
  expect(audit[0]!.details).toMatchObject({
    version: 1,
    from: { version: 0, enabled: false, boardRule: null },
    to: {
      version: 1,
      enabled: true,
      state: "TX",
      boardRule: "22 TAC 291.34(g): electronic transfers between pharmacies",
    },
  });

  // A second change is a new version.
  await page.getByRole("spinbutton", { name: /At most this many automatic confirmations an hour/ }).fill("30");
  await page.getByRole("button", { name: "Save policy" }).focus();
  await page.keyboard.press("Enter");
  await expect(status).toHaveText("Saved: policy v2, on.");
  await expectNoSeriousAxeViolations(page, "the immediate confirmation page, on");

  await page.setViewportSize({ width: 320, height: 640 });
  await page.reload();
  await expect(page.getByText("Policy v2, on.", { exact: true })).toBeVisible();
  await expect(page.getByTestId("simulation")).toBeVisible();
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await expectNoSeriousAxeViolations(page, "the immediate confirmation page at 320 px");
});
