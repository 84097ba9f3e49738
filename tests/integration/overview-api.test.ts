// GET /api/overview over real HTTP: a session is required, a pharmacist gets the day and the last 30 days
// without the partner figures, an admin gets them too; the server's worker keeps the rollups they are read from.
import { beforeAll, describe, expect, it } from "vitest";
import { findStoreTimeZone } from "@/lib/overview/overview-calendar";
import type { Overview } from "@/lib/overview/overview-views";
import { findCompleteThrough, lastClosedDay } from "@/lib/overview/roll-up-overview";
import { createTestPartner } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let pharmacist: string;
let admin: string;

beforeAll(async () => {
  pharmacist = await signedInCookie(baseUrl, await createTestUser("pharmacist", "Overview Pharmacist"));
  admin = await signedInCookie(baseUrl, await createTestUser("admin", "Overview Admin"));
  await createTestPartner("Overview partner");
});

describe("GET /api/overview", () => {
  it("refuses a request without a session with problem+json", async () => {
    const res = await dashboardFetch(baseUrl, "/api/overview");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });

  it("gives a pharmacist the day and the last 30 days, without the partners", async () => {
    const res = await dashboardFetch<Overview>(baseUrl, "/api/overview", { cookie: pharmacist });
    expect(res.status, res.text).toBe(200);
    expect(res.body.today.arrivals).toHaveLength(24);
    expect(res.body.today.pendingByAge.map((b) => b.band)).toEqual(["0-1h", "1-2h", "2-3h", "3-4h", "4h+"]);
    expect(res.body.last30Days.days).toHaveLength(30);
    expect(res.body).not.toHaveProperty("partners");
    expect(res.body.immediateConfirmation).toMatchObject({ confirmedToday: expect.any(Number) });
  });

  it("gives an admin the partners as well", async () => {
    const res = await dashboardFetch<Overview>(baseUrl, "/api/overview", { cookie: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.body.partners?.some((p) => p.name.startsWith("Overview partner "))).toBe(true);
  });

  it("is read from rollups the server's own worker keeps: every closed day of the window rolled up", async () => {
    // The worker ticks every minute and reads the store's time zone each time (another test may change it).
    await expect
      .poll(
        async () => {
          const tz = await findStoreTimeZone();
          return (await findCompleteThrough(tz))?.completeThrough === (await lastClosedDay(tz, new Date()));
        },
        { timeout: 150_000, interval: 2_000 },
      )
      .toBe(true);
  }, 180_000);
});
