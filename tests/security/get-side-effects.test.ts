// GET requests that write audit rows (queue views and searches, transfer views, records, exports)
// cannot be caused by another site's page: a browser marks those with Sec-Fetch-Site cross-site (or
// same-site), and they are refused (API: 403 problem+json; page: a page asking to continue) before
// anything is recorded. Typed addresses (`none`), this site's own pages (`same-origin`) and non-browser
// clients (no header) are served. Also: the queue's unfiltered first page is audited (queue.viewed), but
// not the screen's own background refresh.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();

let pharmacist: TestUser;
let pharmacistCookie: string;
let adminCookie: string;
let referenceID: string;
let transferId: string;

beforeAll(async () => {
  const partner = await createTestPartner("GET side effects");
  pharmacist = await createTestUser("pharmacist", "Side Effects");
  pharmacistCookie = await signedInCookie(baseUrl, pharmacist);
  adminCookie = await signedInCookie(baseUrl, await createTestUser("admin"));
  const answer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  referenceID = answer.body.metadata.referenceID;
  transferId = referenceID; // transfers.id is the referenceID
});

async function auditCount(where: { userId?: string; action: string; transferId?: string }): Promise<number> {
  return db().auditEvent.count({ where });
}

const CROSS_SITE = ["cross-site", "same-site"];

describe("API reads from another site", () => {
  const reads = () => [
    { path: "/api/transfers", cookie: pharmacistCookie },
    { path: "/api/transfers?status=all&q=smith", cookie: pharmacistCookie },
    { path: `/api/transfers/${referenceID}`, cookie: pharmacistCookie },
    { path: `/api/transfers/${referenceID}/status`, cookie: pharmacistCookie },
    { path: "/api/transfers/export?from=2020-01-01&to=2030-01-01", cookie: pharmacistCookie },
    { path: "/api/admin/audit", cookie: adminCookie },
    { path: "/api/admin/audit/export", cookie: adminCookie },
  ];

  it.each(CROSS_SITE)(
    "are refused with 403 problem+json when Sec-Fetch-Site is %s, and record nothing",
    async (site) => {
      const before = await db().auditEvent.count();
      for (const { path, cookie } of reads()) {
        const answer = await dashboardFetch<{ type?: string }>(baseUrl, path, {
          cookie,
          headers: { "sec-fetch-site": site, "sec-fetch-mode": "no-cors" },
        });
        expect(answer.status, path).toBe(403);
        expect(answer.headers.get("content-type"), path).toContain("application/problem+json");
        expect(answer.body.type, path).toBe("urn:rx-transfer:problem:cross_site_request");
      }
      expect(await db().auditEvent.count()).toBe(before);
    },
  );

  it.each(["same-origin", "none", null])("are served with Sec-Fetch-Site %s", async (site) => {
    const headers: Record<string, string> = site ? { "sec-fetch-site": site } : {};
    const answer = await dashboardFetch(baseUrl, `/api/transfers/${referenceID}`, {
      cookie: pharmacistCookie,
      headers,
    });
    expect(answer.status).toBe(200);
  });
});

describe("pages from another site", () => {
  it("a transfer's review screen opened by another site's link asks to continue, and records no view", async () => {
    const before = await auditCount({ transferId, action: "transfer.viewed" });
    for (const path of [`/transfers/${referenceID}`, `/transfers/${referenceID}/record`]) {
      const res = await fetch(`${baseUrl}${path}`, {
        headers: {
          cookie: pharmacistCookie,
          accept: "text/html",
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
        },
        redirect: "manual",
      });
      await res.arrayBuffer();
      expect(res.status, path).toBe(307);
      const target = new URL(res.headers.get("location")!, baseUrl);
      expect(target.pathname).toBe("/continue");
      expect(target.searchParams.get("to")).toBe(path);
    }
    expect(await auditCount({ transferId, action: "transfer.viewed" })).toBe(before);

    const page = await fetch(`${baseUrl}/continue?${new URLSearchParams({ to: `/transfers/${referenceID}` })}`, {
      headers: { cookie: pharmacistCookie, accept: "text/html", "sec-fetch-site": "cross-site" },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Opened from another site");
    expect(html).toContain(`href="/transfers/${referenceID}"`);
  });

  it("the continue page links only to this site", async () => {
    const page = await fetch(`${baseUrl}/continue?${new URLSearchParams({ to: "//evil.example/x" })}`, {
      headers: { cookie: pharmacistCookie, accept: "text/html" },
    });
    const html = await page.text();
    expect(html).toContain('href="/transfers"');
    expect(html).not.toMatch(/href="[^"]*evil\.example/);
  });

  it("opens when typed or followed from this site", async () => {
    const before = await auditCount({ transferId, action: "transfer.viewed" });
    const res = await fetch(`${baseUrl}/transfers/${referenceID}`, {
      headers: { cookie: pharmacistCookie, accept: "text/html", "sec-fetch-site": "none" },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(await auditCount({ transferId, action: "transfer.viewed" })).toBeGreaterThan(before);
  });
});

describe("the queue's first page", () => {
  it("is audited as queue.viewed with the references it listed", async () => {
    const before = await auditCount({ userId: pharmacist.id, action: "queue.viewed" });
    const answer = await dashboardFetch<{ items: { referenceID: string }[] }>(baseUrl, "/api/transfers?status=all", {
      cookie: pharmacistCookie,
    });
    expect(answer.status).toBe(200);
    expect(await auditCount({ userId: pharmacist.id, action: "queue.viewed" })).toBe(before + 1);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { userId: pharmacist.id, action: "queue.viewed" },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ page: "first", referenceIDs: answer.body.items.map((i) => i.referenceID) });
  });

  it("is not audited again by the screen's background refresh", async () => {
    const before = await auditCount({ userId: pharmacist.id, action: "queue.viewed" });
    const answer = await dashboardFetch(baseUrl, "/api/transfers?status=all", {
      cookie: pharmacistCookie,
      headers: { "x-rx-background": "1" },
    });
    expect(answer.status).toBe(200);
    expect(await auditCount({ userId: pharmacist.id, action: "queue.viewed" })).toBe(before);
  });
});
