// The sender's callback API answers RX_CALLBACK_ERROR (with HTTP 200) to a callback: in Chromium against the
// production server, the review screen's timeline says it was refused by the sender, with the sender's
// error, never "delivered"; the partner's admin page lists it beside the last hour's failure rate and the
// overview names the partner; redelivered after the fix, it becomes delivered.
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./axe";
import { connect, createPharmacist, signIn } from "./dashboard-helpers";
import { startCallbackApi, type CallbackApi } from "../lib/sender-sim/callback-api";

let callbackApi: CallbackApi;

test.beforeAll(async () => {
  connect();
  callbackApi = await startCallbackApi({ refuseShare: 1 });
});

test.afterAll(async () => {
  await callbackApi?.close();
});

test("a callback the sender refuses shows as refused on the timeline and the partner page, and is delivered once redelivered", async ({
  page,
  baseURL,
}) => {
  const { db } = await import("../lib/db/prisma");
  const { createPartner } = await import("../lib/partners/create-partner");
  const { approveTransfer } = await import("../lib/transfers/decision");
  const { freshRequest, send } = await import("../tests/support/api");

  const partnerName = `E2E Refusing Sender ${Date.now().toString(36)}`;
  const partner = await createPartner({
    name: partnerName,
    callbackUrl: callbackApi.url,
    npis: [],
  });
  const pharmacist = await createPharmacist("Percy Approver");
  const admin = await createPharmacist("Rita Refused", "admin");
  const user = await db().user.findUniqueOrThrow({ where: { email: pharmacist.email } });

  // The key bare in Authorization, as the sender's published example sends it.
  const answer = await send(baseURL!, { body: freshRequest(), authorization: partner.apiKey });
  expect(answer.status).toBe(200);
  const transferId = answer.body.metadata.referenceID;
  await approveTransfer({
    transferId,
    actor: { id: user.id, email: pharmacist.email, name: pharmacist.name, role: "pharmacist" },
    clientAddress: null,
    approval: { localRxNumber: undefined, note: undefined },
  });
  await expect.poll(() => callbackApi.received.length, { timeout: 15_000 }).toBe(1);
  expect(callbackApi.received[0]!.answered).toBe("RX_CALLBACK_ERROR");

  await signIn(page, admin, `/transfers/${transferId}`);
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline).toContainText("Callback attempt 1: HTTP 200");
  await expect(timeline).toContainText(
    "refused by the sender: MISSING_INFO: could not map callback - requestID is missing",
  );
  await expect(timeline).not.toContainText("Callback acknowledged by the sender");
  await expect(page.getByText("REFUSED", { exact: true })).toBeVisible();
  await expect(page.getByText(/Refused by the sender, not delivered/)).toBeVisible();

  await page.goto(`/admin/partners/${partner.partnerId}`);
  const section = page.getByRole("region", { name: "As the sender sees us" });
  await expect(section.getByText(/Failure rate, last hour/)).toBeVisible();
  const refusedList = section.getByRole("list", { name: "Callbacks refused by the sender" });
  await expect(refusedList).toContainText(transferId);
  await expect(refusedList).toContainText("MISSING_INFO: could not map callback - requestID is missing");
  await expectNoSeriousAxeViolations(page, "partner page with a refused callback");

  await page.goto("/admin");
  await expect(page.getByRole("alert").filter({ hasText: partnerName })).toContainText(
    "1 callback refused by the sender",
  );

  // Fixed on the sender's side: redeliver, and it is delivered.
  callbackApi.setRefuseShare(0);
  await page.goto(`/transfers/${transferId}`);
  await page.getByRole("button", { name: "Redeliver" }).click();
  await page
    .getByRole("dialog", { name: "Send the callback again?" })
    .getByRole("button", { name: "Send again" })
    .click();
  await expect(page.getByText(/Redelivered: the sender acknowledged attempt 2/)).toBeVisible({ timeout: 15_000 });
  await expect(timeline).toContainText("Callback acknowledged by the sender");
  await expect(page.getByText("DELIVERED", { exact: true })).toBeVisible();
  expect(callbackApi.received.map((c) => c.answered)).toEqual(["RX_CALLBACK_ERROR", "RX_CALLBACK_SUCCESS"]);
});
