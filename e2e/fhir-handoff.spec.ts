// Hand-off to the dispensing system, in Chromium: the approved transfer's review screen and record page offer
// "Download FHIR bundle", and the file the browser saves is a FHIR R4 transaction Bundle valid against the
// official schema; an admin creates an integration key (shown once) that reads the feed until revoked.
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { connect, createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { db } from "../lib/db/prisma";
import { approveTransfer } from "../lib/transfers/decision";
import { fhirSchemaErrors } from "../tests/support/fhir-schema";

test("an approved transfer's FHIR Bundle downloads from the review screen and the record page", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Dana Fills, PharmD");
  const partner = await createSender();
  const referenceID = await sendTransfer(request, partner, transferRequest());
  connect();
  const user = await db().user.findUniqueOrThrow({ where: { email: pharmacist.email } });
  await approveTransfer({
    transferId: referenceID,
    actor: { id: user.id, email: user.email, name: user.name, role: "pharmacist" },
    clientAddress: null,
    approval: { localRxNumber: "E2E-501" },
  });

  await signIn(page, pharmacist, `/transfers/${referenceID}`);
  await expect(page.getByRole("link", { name: "Download FHIR bundle" })).toBeVisible();
  await page.goto(`/transfers/${referenceID}/record`);
  const link = page.getByRole("link", { name: "Download FHIR bundle" });
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(download.suggestedFilename()).toBe(`${referenceID}.fhir.json`);
  const bundle = JSON.parse(await readFile((await download.path())!, "utf8")) as { resourceType: string; type: string };
  expect(bundle).toMatchObject({ resourceType: "Bundle", type: "transaction" });
  expect(JSON.stringify(bundle)).toContain("E2E-501");
  expect(fhirSchemaErrors(bundle)).toEqual([]);
});

test("an admin creates an integration key (shown once) that reads the feed until it is revoked", async ({
  page,
  request,
}) => {
  const admin = await createPharmacist("Ike Admin", "admin");
  await signIn(page, admin, "/admin/integration-keys");
  await expect(page.getByRole("heading", { level: 1, name: "Integration keys" })).toBeVisible();
  const form = page.getByRole("form", { name: "Create an integration key" });
  const name = `Engine ${Date.now()}`;
  await form.getByLabel("System name").fill(name);
  await form.getByRole("button", { name: "Create key" }).click();
  const panel = page.getByRole("region", { name: `Integration key for ${name}` });
  const key = await panel.getByLabel("Integration key").inputValue();
  expect(key).toMatch(/^rxi_/);
  const feed = () => request.get("/api/integration/transfers", { headers: { authorization: `Bearer ${key}` } });
  expect((await feed()).status()).toBe(200);
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(panel).toBeHidden();

  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "revoked" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  const refused = await feed();
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toContain("Bearer");
});
