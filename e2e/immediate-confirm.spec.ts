// Immediate confirmation in Chromium: a transfer CONFIRMED at intake under a store's policy waits in
// "Confirmed automatically, to verify", and a pharmacist verifies it with the keyboard alone (j to select, v);
// a transfer that did not qualify says why on its queue row and its review screen.
import { randomInt, randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { connect, createPharmacist, createSender, signIn, transferRequest } from "./dashboard-helpers";
import { CLI_ACTOR } from "../lib/audit/actor";
import { db } from "../lib/db/prisma";
import { setImmediateConfirmPolicy } from "../lib/immediate-confirm/set-immediate-confirm-policy";
import { addStore } from "../lib/stores/add-store";
import { computeNpiCheckDigit } from "../lib/interface";
import type { TransferRequest, TransferResponse } from "../lib/interface";

test("a pharmacist verifies an automatically confirmed transfer with v", async ({ page, request }) => {
  const pharmacist = await createPharmacist("Vera Quick, PharmD");
  const partner = await createSender();
  connect();
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const npi = `${body}${computeNpiCheckDigit(body)}`;
  const store = await addStore({ name: "E2E Immediate", npi, dea: null, actor: CLI_ACTOR });
  const owner = await db().user.findUniqueOrThrow({ where: { email: pharmacist.email } });
  await setImmediateConfirmPolicy({
    storeRef: store.storeId,
    change: { enabled: true, ownerUserId: owner.id, state: "TX", boardRule: "22 TAC 291.34(g)" },
    actor: CLI_ACTOR,
  });

  // The server learns of the new store and its policy within its caches' 10 seconds.
  let referenceID = "";
  await expect
    .poll(
      async () => {
        const res = await request.post("/v1/transfer", {
          data: transferRequest((r) => {
            r.receivingPharmacy.npi = npi;
            r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
          }),
          headers: { authorization: `senderKey ${partner.apiKey}` },
        });
        if (res.status() !== 200) return `HTTP ${res.status()}`;
        const answer = (await res.json()) as TransferResponse;
        referenceID = answer.metadata.referenceID;
        return answer.metadata.responseType;
      },
      { timeout: 20_000, intervals: [1000] },
    )
    .toBe("CONFIRMED");

  await signIn(page, pharmacist, "/transfers/to-verify");
  await expect(page.getByRole("heading", { level: 1, name: /Confirmed automatically, to verify/ })).toBeVisible();
  const rows = page.getByTestId("to-verify-row");
  const target = rows.filter({ hasText: referenceID });
  await expect(target).toBeVisible();
  for (let i = 0; i < 50 && (await target.getAttribute("aria-selected")) !== "true"; i++) {
    await page.keyboard.press("j");
  }
  await expect(target).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("v");
  const notice = page.getByRole("status").filter({ hasText: `Verified ${referenceID}` });
  await expect(notice).toContainText("accepted automatically under store policy v1 (owner: Vera Quick, PharmD) at");
  await expect(notice).toContainText("received and verified by Vera Quick, PharmD at");
  await expect(target).toHaveCount(0);
  const record = await db().immediateConfirmation.findUniqueOrThrow({ where: { transferId: referenceID } });
  expect(record.verifiedById).toBe(owner.id);
});

test("the queue and the review screen say why a transfer was not confirmed automatically", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Noor Haddad, PharmD");
  const partner = await createSender();
  connect();
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const npi = `${body}${computeNpiCheckDigit(body)}`;
  const store = await addStore({ name: "E2E Why Not", npi, dea: null, actor: CLI_ACTOR });
  const owner = await db().user.findUniqueOrThrow({ where: { email: pharmacist.email } });
  await setImmediateConfirmPolicy({
    storeRef: store.storeId,
    change: { enabled: true, ownerUserId: owner.id, state: "TX", boardRule: "22 TAC 291.34(g)", hourlyCap: 1 },
    actor: CLI_ACTOR,
  });
  const send = async (change: (r: TransferRequest) => void) => {
    const res = await request.post("/v1/transfer", {
      data: transferRequest((r) => {
        r.receivingPharmacy.npi = npi;
        r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
        change(r);
      }),
      headers: { authorization: `senderKey ${partner.apiKey}` },
    });
    if (res.status() !== 200) return { status: `HTTP ${res.status()}`, referenceID: "" };
    const answer = (await res.json()) as TransferResponse;
    return { status: answer.metadata.responseType, referenceID: answer.metadata.referenceID };
  };
  // The first qualifying transfer uses the store's cap of 1 an hour (once the server knows the new store).
  await expect
    .poll(async () => (await send(() => {})).status, { timeout: 20_000, intervals: [1000] })
    .toBe("CONFIRMED");

  const tag = `Whynot${randomUUID()
    .replace(/[^a-z]/g, "")
    .slice(0, 6)}`;
  const oxycodone = await send((r) => {
    r.patient.name.lastName = `${tag}a`;
    r.prescription.medicationName = "Oxycodone Hydrochloride";
    r.prescription.drugStrength = "5 mg";
  });
  const allergy = await send((r) => {
    r.patient.name.lastName = `${tag}b`;
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
  });
  const capped = await send((r) => {
    r.patient.name.lastName = `${tag}c`;
  });
  for (const t of [oxycodone, allergy, capped]) expect(t.status).toBe("RECEIVED");

  await signIn(page, pharmacist, `/transfers?q=${tag}`);
  const row = (id: string) => page.getByRole("row").filter({ hasText: id });
  await expect(row(oxycodone.referenceID).getByRole("note")).toHaveAccessibleName(
    /^Not confirmed automatically: controlled substance \(C-II\)/,
  );
  await expect(row(oxycodone.referenceID)).toContainText("Not automatic: controlled substance");
  await expect(row(allergy.referenceID).getByRole("note")).toHaveAccessibleName(
    /^Not confirmed automatically: the patient has listed allergies/,
  );
  await expect(row(allergy.referenceID)).toContainText("Not automatic: allergies listed");
  await expect(row(capped.referenceID).getByRole("note")).toHaveAccessibleName(
    "Not confirmed automatically: the store's cap of 1 automatic confirmations an hour is reached",
  );
  await expect(row(capped.referenceID)).toContainText("Not automatic: hourly cap reached");

  await page.goto(`/transfers/${oxycodone.referenceID}`);
  await expect(page.getByRole("note").filter({ hasText: "Not confirmed automatically" })).toHaveText(
    /^Not confirmed automatically: controlled substance \(C-II\): never confirmed automatically\.$/,
  );

  // Turned off, the store's reasons are no longer shown: they described a policy that no longer applies.
  await setImmediateConfirmPolicy({ storeRef: store.storeId, change: { enabled: false }, actor: CLI_ACTOR });
  await expect
    .poll(
      async () => {
        await page.goto(`/transfers?q=${tag}`);
        await expect(row(capped.referenceID)).toBeVisible();
        return row(capped.referenceID).getByRole("note").count();
      },
      { timeout: 20_000, intervals: [1000] },
    )
    .toBe(0);
});
