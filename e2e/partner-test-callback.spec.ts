// An admin checks a partner's receiver before the first real transfer: the callback settings say what this
// server's mode allows, and "Send a test callback" POSTs a signed sample TransferResponse marked as a test
// to the partner's URL, shows the attempt, and records it in the audit log.
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

test("an admin sends a signed test callback to a partner's receiver and sees the answer; it is audited", async ({
  page,
}) => {
  const { createPartner } = await import("../lib/partners/create-partner");
  const { createUser } = await import("../lib/users/create-user");
  const { db } = await import("../lib/db/prisma");
  const partner = await createPartner({
    name: `E2E Test Callback ${randomUUID().slice(0, 6)}`,
    callbackUrl: `${receiver.baseUrl}/test-callbacks`,
    npis: [],
  });
  const email = `admin-${randomUUID().slice(0, 8)}@pharmacy.test`;
  const password = randomBytes(12).toString("base64url");
  await createUser({ email, password, role: "admin", name: "Alex Admin" });

  await page.goto(`/login?callbackUrl=${encodeURIComponent(`/admin/partners/${partner.partnerId}`)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/partners/${partner.partnerId}$`));

  // The test server allows private networks: the help text says so instead of claiming loopback is refused.
  const section = page.getByRole("region", { name: "Callback URL" });
  await expect(section).toContainText("This server allows private networks (CALLBACK_ALLOW_PRIVATE_NETWORKS=true");
  await expect(section).not.toContainText("The address must be public");

  await section.getByRole("button", { name: "Send a test callback" }).click();
  await expect(
    section.getByRole("status").filter({ hasText: /Test callback msg_\w+ acknowledged: HTTP 204/ }),
  ).toBeVisible({ timeout: 20_000 });
  const [arrived] = await receiver.waitFor("/test-callbacks", 1, 10_000);
  expect(verifyStandardWebhook(arrived!, partner.webhookSecret)).toBe(true);
  const body = JSON.parse(arrived!.body) as {
    requestID: string;
    metadata: { responseType: string; referenceID: string; test: boolean };
  };
  expect(body.metadata).toMatchObject({ responseType: "CONFIRMED", referenceID: "trf_test", test: true });

  const audit = await db().auditEvent.findFirst({
    where: { action: "partner.test_callback_sent", actor: email },
    orderBy: { id: "desc" },
  });
  expect(audit?.details).toMatchObject({
    partnerId: partner.partnerId,
    webhookId: arrived!.headers["webhook-id"],
    ok: true,
    statusCode: 204,
  });
});
