// Immediate confirmation in Chromium: a transfer CONFIRMED at intake under a store's policy waits in
// "Confirmed automatically, to verify", and a pharmacist verifies it with the keyboard alone (j to select, v).
import { randomInt } from "node:crypto";
import { expect, test } from "./fixtures";
import { connect, createPharmacist, createSender, signIn, transferRequest } from "./dashboard-helpers";
import { CLI_ACTOR } from "../lib/audit/actor";
import { db } from "../lib/db/prisma";
import { setImmediateConfirmPolicy } from "../lib/immediate-confirm/set-immediate-confirm-policy";
import { addStore } from "../lib/stores/add-store";
import { computeNpiCheckDigit } from "../lib/transfers/identifiers";
import type { TransferResponse } from "../lib/transfers/wire";

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
