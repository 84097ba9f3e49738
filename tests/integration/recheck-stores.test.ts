// The stored check flags follow the server's review-check settings: a transfer whose fill history is plausible
// with refills allowed 25 % early, and not with 10 %, is flagged for the queue's warnings filter once its store is
// checked again with the other setting, and unflagged when it goes back. A store already checked with the
// settings is not checked again; the server's own start-up pass marks the stores with its settings.
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { recheckStoresForCheckOptions } from "@/lib/stores/recheck-stores";
import { computeNpiCheckDigit } from "@/lib/interface";
import { reviewCheckOptions } from "@/lib/transfers/review";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const DAY = 86_400_000;
let storeNpi: string;
let transferId: string;

function randomNpi(): string {
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

const flagsOf = async () =>
  (await db().transfer.findUniqueOrThrow({ where: { id: transferId }, select: { checkFlags: true } })).checkFlags;
const storeOptions = async () =>
  (await db().store.findUniqueOrThrow({ where: { npi: storeNpi }, select: { checkOptions: true } })).checkOptions;

beforeAll(async () => {
  const partner = await createTestPartner("Recheck Stores");
  const admin = await createTestUser("admin", "Recheck Stores Admin");
  const cookie = await signedInCookie(baseUrl, admin);
  storeNpi = randomNpi();
  const added = await dashboardFetch(baseUrl, "/api/admin/stores", {
    method: "POST",
    body: { name: "Recheck Stores Pharmacy", npi: storeNpi },
    cookie,
  });
  expect(added.status, added.text).toBe(201);
  // Atorvastatin, 30-day supply, filled twice 24 days apart: at least 22.5 days with refills 25 % early,
  // 27 days with 10 %.
  const request = freshRequest((r) => {
    r.receivingPharmacy.npi = storeNpi;
    const first = new Date(r.prescription.firstFilledDate!).getTime();
    r.prescription.lastFilledDate = new Date(first + 24 * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");
  });
  expect(request.prescription.medicationName).toBe("Atorvastatin Calcium");
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  transferId = answer.body.metadata.referenceID;
});

describe("the check flags after the review-check settings change", () => {
  it("are marked by the server's start-up pass with its settings (the configured store)", async () => {
    const configured = await db().store.findFirstOrThrow({ orderBy: { createdAt: "asc" }, select: { npi: true } });
    await expect
      .poll(
        async () =>
          (await db().store.findUniqueOrThrow({ where: { npi: configured.npi }, select: { checkOptions: true } }))
            .checkOptions,
        { timeout: 15_000 },
      )
      .toBe(JSON.stringify(reviewCheckOptions()));
  });

  it("are computed at intake with the server's settings (refills 25 % early: a plausible history)", async () => {
    expect(reviewCheckOptions().earlyRefillAllowance).toBe(0.25);
    expect(await flagsOf()).toEqual([]);
  });

  it("flag the fill history when the store is checked again with refills 10 % early", async () => {
    const tenPercent = { earlyRefillAllowance: 0.1 };
    const first = await recheckStoresForCheckOptions({ options: tenPercent });
    expect(first.stores).toBeGreaterThanOrEqual(1);
    expect(await flagsOf()).toEqual(["fill-history"]);
    expect(await storeOptions()).toBe(JSON.stringify(tenPercent));

    // Already checked with these settings: nothing is done again.
    expect(await recheckStoresForCheckOptions({ options: tenPercent })).toEqual({ stores: 0, transfers: 0 });
  });

  it("clear the flag when the settings go back, and mark the store with them (gently, as at start-up)", async () => {
    const again = await recheckStoresForCheckOptions({ gentle: true });
    expect(again.transfers).toBeGreaterThanOrEqual(1);
    expect(await flagsOf()).toEqual([]);
    expect(await storeOptions()).toBe(JSON.stringify(reviewCheckOptions()));
  });

  it("leave a pass stopped before it starts unmarked, for the next start-up to do", async () => {
    const stopped = new AbortController();
    stopped.abort();
    const result = await recheckStoresForCheckOptions({
      options: { earlyRefillAllowance: 0.1 },
      signal: stopped.signal,
    });
    expect(result.stores).toBe(0);
    expect(await storeOptions()).toBe(JSON.stringify(reviewCheckOptions()));
    expect(await flagsOf()).toEqual([]);
  });
});
