// A store's alert settings over real HTTP: only admins change them, bad input is a 400 naming the
// field, every change is audited with the old and new values, and quiet hours hold a crossing back until the
// store opens (the transfer shows as "arrived after hours"). The banner's endpoint answers its one shape.
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { WEEKDAYS } from "@/lib/alerts/alert-settings";
import { AlertSummarySchema } from "@/lib/alerts/alert-summary";
import { findAlertingTransfers, loadStoreAlertSettings } from "@/lib/alerts/find-alerting-transfers";
import { db } from "@/lib/db/prisma";
import { forgetStoreDirectory } from "@/lib/stores/store-npis";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { computeNpiCheckDigit } from "@/lib/interface";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let adminCookie: string;
let pharmacistCookie: string;
let partner: CreatedPartner;
let store: { storeId: string; npi: string };

type Problem = { status: number; detail: string; fields?: { field: string; message: string }[] };

const call = <T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown, cookie = adminCookie) =>
  dashboardFetch<T>(baseUrl, urlPath, { method, body, cookie });

function randomNpi(): string {
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

beforeAll(async () => {
  adminCookie = await signedInCookie(baseUrl, await createTestUser("admin", "Alert Admin"));
  pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist", "Alert Pharmacist"));
  partner = await createTestPartner("Alert settings");
  const npi = randomNpi();
  const added = await call<{ storeId: string }>("POST", "/api/admin/stores", { name: "Night Owl Store", npi });
  expect(added.status, added.text).toBe(201);
  store = { storeId: added.body.storeId, npi };
});

describe("store alert settings", () => {
  it("are refused to pharmacists and validated field by field for admins", async () => {
    const settings = { alertThresholdsMinutes: [60, 150], openingHours: null, timeZone: "America/Chicago" };
    expect((await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, settings, pharmacistCookie)).status).toBe(
      403,
    );
    const bad = await call<Problem>("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
      alertThresholdsMinutes: [150, 60, 300],
      openingHours: [{ open: "9am", close: "17:00" }, null, null, null, null, null, null],
      timeZone: "Chicago",
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    expect(bad.body.fields?.map((f) => f.field)).toEqual(
      expect.arrayContaining(["alertThresholdsMinutes.2", "openingHours.0.open", "timeZone"]),
    );
    expect((await call("PUT", "/api/admin/stores/str_nosuchstore/alerts", settings)).status).toBe(404);
  });

  it("are saved, listed and audited with the old and new values", async () => {
    const settings = { alertThresholdsMinutes: [60, 150], openingHours: null, timeZone: "America/Chicago" };
    const saved = await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, settings);
    expect(saved.status, saved.text).toBe(200);
    const listed = await call<{ stores: { storeId: string }[] }>("GET", "/api/admin/stores");
    expect(listed.body.stores.find((s) => s.storeId === store.storeId)).toMatchObject(settings);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "store.alerts_changed" },
      orderBy: { id: "desc" },
    });
    expect(audit.details).toMatchObject({
      storeId: store.storeId,
      from: { alertThresholdsMinutes: [120, 180], openingHours: null, timeZone: "UTC" },
      to: settings,
    });
  });

  it("hold a crossing while the store is closed until it opens, and mark the transfer as arrived after hours", async () => {
    const answer = await send(baseUrl, {
      body: freshRequest((r) => (r.receivingPharmacy.npi = store.npi)),
      authorization: senderKey(partner.apiKey),
    });
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.metadata.referenceID;
    await db().$executeRaw`UPDATE transfers SET received_at = now() - interval '70 minutes' WHERE id = ${id}`;
    // Open only on the day three days from now (UTC): closed now and when the transfer arrived.
    const openDay = (new Date().getUTCDay() + 3) % 7;
    const hours = WEEKDAYS.map((_, i) => (i === openDay ? { open: "00:00", close: "24:00" } : null));
    expect(
      (
        await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
          alertThresholdsMinutes: [60, 150],
          openingHours: hours,
          timeZone: "UTC",
        })
      ).status,
    ).toBe(200);
    // This process is another instance than the server that saved them: it would see them within the store
    // directory's TTL (the test below); forgetting its copy reads them now.
    forgetStoreDirectory();
    const closed = await findAlertingTransfers({ limit: 100_000 });
    expect(closed.transfers.map((t) => t.transferId)).not.toContain(id);

    expect(
      (
        await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
          alertThresholdsMinutes: [60, 150],
          openingHours: null,
          timeZone: "UTC",
        })
      ).status,
    ).toBe(200);
    forgetStoreDirectory();
    const open = await findAlertingTransfers({ limit: 100_000 });
    const alerting = open.transfers.find((t) => t.transferId === id);
    expect(alerting?.due.map((d) => d.thresholdMinutes)).toEqual([60]);
    expect(alerting?.arrivedAfterHours).toBe(false);

    // Open every day but the one it arrived on: it arrived after hours, and alerts from the next opening.
    const arrivedDay = new Date(Date.now() - 70 * 60_000).getUTCDay();
    const notThatDay = WEEKDAYS.map((_, i) => (i === arrivedDay ? null : { open: "00:00", close: "24:00" }));
    expect(
      (
        await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
          alertThresholdsMinutes: [1, 150],
          openingHours: notThatDay,
          timeZone: "UTC",
        })
      ).status,
    ).toBe(200);
    forgetStoreDirectory();
    const later = (await findAlertingTransfers({ limit: 100_000 })).transfers.find((t) => t.transferId === id);
    // The queue marks it for the pharmacist.
    const queue = await call<{ items: { referenceID: string; arrivedAfterHours: boolean }[] }>(
      "GET",
      `/api/transfers?q=${id}`,
      undefined,
      pharmacistCookie,
    );
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.items.find((i) => i.referenceID === id)?.arrivedAfterHours).toBe(true);
    if (new Date().getUTCDay() === arrivedDay) {
      expect(later).toBeUndefined();
    } else {
      expect(later?.arrivedAfterHours).toBe(true);
    }
  });

  it("another process (instance, worker) sees saved settings within the store directory's 10 s cache", async () => {
    const thresholds = [randomInt(5, 100), 200];
    await loadStoreAlertSettings(); // this process now holds a copy
    const saved = Date.now();
    expect(
      (
        await call("PUT", `/api/admin/stores/${store.storeId}/alerts`, {
          alertThresholdsMinutes: thresholds,
          openingHours: null,
          timeZone: "UTC",
        })
      ).status,
    ).toBe(200);
    let seen: number[] | undefined;
    while (Date.now() - saved < 12_000) {
      seen = (await loadStoreAlertSettings()).get(store.npi)?.alertThresholdsMinutes;
      if (seen?.[0] === thresholds[0]) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen).toEqual(thresholds);
    expect(Date.now() - saved).toBeLessThan(11_000);
  });

  it("the banner's endpoint answers pharmacists its documented shape, and the anonymous 401", async () => {
    const res = await call("GET", "/api/transfers/alerts", undefined, pharmacistCookie);
    expect(res.status).toBe(200);
    expect(AlertSummarySchema.safeParse(res.body).success).toBe(true);
    expect((await dashboardFetch(baseUrl, "/api/transfers/alerts", { method: "GET" })).status).toBe(401);
  });
});
