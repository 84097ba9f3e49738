// A pharmacist sends a transfer's callback again from the review screen, in a real browser, against the
// production server (whose in-process worker delivers it) and a real HTTP receiver standing in for the
// sender: the timeline shows the first delivery, "Redeliver" sends the same webhook-id with a new
// timestamp, and the manual attempt appears on the timeline.
import { randomBytes, randomUUID } from "node:crypto";
import { connect } from "./dashboard-helpers";
import { expect, test } from "./fixtures";
import {
  startCallbackReceiver,
  verifyStandardWebhook,
  type CallbackReceiver,
} from "../tests/support/callback-receiver";

let receiver: CallbackReceiver;

test.beforeAll(async () => {
  connect();
  receiver = await startCallbackReceiver();
});

test.afterAll(async () => {
  await receiver?.close();
});

test("a pharmacist redelivers a callback from the review screen and sees the attempt on the timeline", async ({
  page,
  baseURL,
}) => {
  const { createPartner } = await import("../lib/partners/create-partner");
  const { createUser } = await import("../lib/users/create-user");
  const { approveTransfer } = await import("../lib/transfers/decision");
  const { freshRequest, send, senderKey } = await import("../tests/support/api");

  const partner = await createPartner({
    name: `E2E Sender ${randomUUID().slice(0, 6)}`,
    callbackUrl: `${receiver.baseUrl}/e2e-callbacks`,
    npis: [],
  });
  const email = `redeliver-${randomUUID().slice(0, 8)}@pharmacy.test`;
  const password = randomBytes(12).toString("base64url");
  const { userId } = await createUser({ email, password, role: "pharmacist", name: "Robin Redeliver, PharmD" });

  const answer = await send(baseURL!, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  expect(answer.status).toBe(200);
  const transferId = answer.body.metadata.referenceID;
  const decided = await approveTransfer({
    transferId,
    actor: { id: userId, email, name: "Robin Redeliver, PharmD", role: "pharmacist" },
    clientAddress: null,
    approval: { localRxNumber: undefined, note: undefined },
  });
  const [first] = await receiver.waitFor("/e2e-callbacks", 1, 10_000);
  expect(first!.headers["webhook-id"]).toBe(decided.callbackId);

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/transfers/);

  await page.goto(`/transfers/${transferId}`);
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline).toContainText(/Callback attempt 1: HTTP 204/);
  await expect(timeline).not.toContainText(/manual redelivery/);

  // webhook-timestamp is in seconds: make sure the redelivery's is a new one.
  await page.waitForTimeout(Math.max(0, first!.at + 1100 - Date.now()));
  // The app's own dialog (not the browser's confirm()), focus on its confirming button; Cancel sends nothing.
  await page.getByRole("button", { name: "Redeliver" }).click();
  const confirm = page.getByRole("dialog", { name: "Send the callback again?" });
  await expect(confirm).toContainText("the same webhook-id");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole("button", { name: "Redeliver" }).click();
  await expect(confirm.getByRole("button", { name: "Send again" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden();

  const [, again] = await receiver.waitFor("/e2e-callbacks", 2, 10_000);
  expect(again!.headers["webhook-id"]).toBe(decided.callbackId);
  expect(Number(again!.headers["webhook-timestamp"])).toBeGreaterThan(Number(first!.headers["webhook-timestamp"]));
  expect(verifyStandardWebhook(again!, partner.webhookSecret)).toBe(true);
  expect(again!.body).toBe(first!.body);

  await expect(timeline).toContainText(/Callback attempt 2 \(manual redelivery\): HTTP 204/, { timeout: 10_000 });
  expect(receiver.requests("/e2e-callbacks")).toHaveLength(2);
  // The state of the redelivery itself, not "queued" next to DELIVERED.
  await expect(
    page.getByRole("status").filter({ hasText: "Redelivered: the sender acknowledged attempt 2 (HTTP 204)" }),
  ).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Redelivery queued")).toHaveCount(0);

  // The same attempts as JSON, for the signed-in user.
  const res = await page.request.get(`/api/transfers/${transferId}/callbacks`);
  expect(res.status()).toBe(200);
  const json = (await res.json()) as {
    callbackId: string;
    status: string;
    attempts: { attemptNumber: number; statusCode: number; manual: boolean }[];
  };
  expect(json).toMatchObject({ callbackId: decided.callbackId, status: "DELIVERED" });
  expect(json.attempts.map((a) => [a.attemptNumber, a.statusCode, a.manual])).toEqual([
    [1, 204, false],
    [2, 204, true],
  ]);
});
