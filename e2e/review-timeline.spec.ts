// The review screen's timeline reads as what happened: repeated views are one line per person per day (the
// audit log keeps each), a rejection comes before the callback it queued, and the callback's state follows
// the delivery without a reload (polled every second while it is pending). Desktop and 320 px.
import { randomUUID } from "node:crypto";
import { startCallbackReceiver, type CallbackReceiver } from "../tests/support/callback-receiver";
import { connect, createPharmacist, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

const VIEWPORTS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "320 px", viewport: { width: 320, height: 640 } },
] as const;

/** How long the sender's endpoint takes to answer: the screen shows PENDING meanwhile. */
const ANSWER_DELAY_MS = 1_500;

let receiver: CallbackReceiver;

test.beforeAll(async () => {
  connect();
  receiver = await startCallbackReceiver();
});

test.afterAll(async () => {
  await receiver?.close();
});

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport });

    test("views fold into one line, the rejection precedes its callback, and the delivery shows without a reload", async ({
      page,
      request,
    }) => {
      const { createPartner } = await import("../lib/partners/create-partner");
      const path = `/timeline-${randomUUID()}`;
      receiver.script(path, [{ status: 204, delayMs: ANSWER_DELAY_MS }]);
      const partner = await createPartner({
        name: `E2E Timeline Sender ${randomUUID().slice(0, 6)}`,
        callbackUrl: `${receiver.baseUrl}${path}`,
        npis: [],
      });
      const pharmacist = await createPharmacist(`Tia Timeline-${viewport.width}, PharmD`);
      const referenceID = await sendTransfer(request, partner, transferRequest());

      await signIn(page, pharmacist, `/transfers/${referenceID}`);
      await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
      for (let i = 0; i < 2; i++) {
        await page.reload();
        await expect(page.getByText("You are reviewing this transfer.")).toBeVisible();
      }

      await page.getByRole("button", { name: "Reject" }).click();
      const dialog = page.getByRole("dialog", { name: "Reject transfer" });
      await dialog.getByLabel("Error type").selectOption("INVALID_INFO");
      await dialog.getByLabel("Description").fill("prescription.refillsRemaining: no refills left on our records");
      await dialog.getByRole("button", { name: "Confirm rejection" }).click();
      await expect(page.getByText("Rejected. ERROR is on its way to the sender.")).toBeVisible();

      // The sender's endpoint has the callback; it answers ANSWER_DELAY_MS later, and within a second or two
      // of that the screen says so (a 5-second poll would not).
      const [callback] = await receiver.waitFor(path, 1, 15_000);
      const callbackBox = page.getByText("Callback to the sender", { exact: true }).locator("..");
      await expect(callbackBox.getByText("DELIVERED", { exact: true })).toBeVisible({
        timeout: Math.max(1_000, callback!.at + ANSWER_DELAY_MS + 2_500 - Date.now()),
      });

      const timeline = page.getByRole("list", { name: "Timeline" });
      await expect(timeline).toContainText("Callback acknowledged by the sender");
      const entries = await timeline.getByRole("listitem").allTextContents();
      const viewLines = entries.filter((e) => e.includes(`Viewed by ${pharmacist.name}`));
      expect(viewLines, entries.join("\n")).toHaveLength(1);
      // Three openings of the review screen and the history each one asked for: counted in the one line.
      expect(viewLines[0]).toMatch(/review screen, patient history\) \(\d+×, last /);
      expect(Number(/\((\d+)×/.exec(viewLines[0]!)![1])).toBeGreaterThanOrEqual(3);
      expect(entries.filter((e) => /history viewed/i.test(e))).toEqual([]);

      const at = (text: string) => entries.findIndex((e) => e.includes(text));
      expect(at(`Rejected by ${pharmacist.name}`), entries.join("\n")).toBeGreaterThan(at("Claimed for review"));
      expect(at("Callback to the sender queued"), entries.join("\n")).toBeGreaterThan(
        at(`Rejected by ${pharmacist.name}`),
      );
      expect(at("Callback attempt 1"), entries.join("\n")).toBeGreaterThan(at("Callback to the sender queued"));
      expect(at("Callback acknowledged by the sender"), entries.join("\n")).toBeGreaterThan(at("Callback attempt 1"));
    });
  });
}
