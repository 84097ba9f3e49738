// The dispensing-system feed over real HTTP against the production build: approved transfers in approval
// order with their FHIR Bundles (valid against the official R4 schema), never skipping nor repeating one
// while approvals commit concurrently with a reader paging; integration keys as a credential (401 problem+json
// with WWW-Authenticate when missing, unknown or revoked); a cursor that cannot be parsed is a 400. Also the
// dashboard download and `npm run cli -- transfers fhir`.
import { beforeAll, describe, expect, it } from "vitest";
import type { Bundle } from "@medplum/fhirtypes";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/generated/prisma/client";
import { appendFeedEntry, numberFeedEntriesIn } from "@/lib/integration/feed-entries";
import { createIntegrationKey, revokeIntegrationKey } from "@/lib/integration/integration-keys";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { approveTransfer } from "@/lib/transfers/decision";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { runCli } from "@/tests/support/cli";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { fhirSchemaErrors } from "@/tests/support/fhir-schema";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let pharmacist: TestUser;
let key: string;

type FeedPage = {
  items: { referenceID: string; approvedAt: string; cursor: string; bundle: Bundle }[];
  nextCursor: string;
  hasMore: boolean;
};

async function feed(query: string, authorization: string | null = `Bearer ${key}`) {
  const res = await fetch(`${baseUrl}/api/integration/transfers${query}`, {
    headers: authorization ? { authorization } : {},
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: JSON.parse(text) as FeedPage & { type?: string; detail?: string },
  };
}

async function receive(): Promise<string> {
  const answer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

const actor = () => ({ id: pharmacist.id, email: pharmacist.email, name: pharmacist.name, role: pharmacist.role });

/** The cursor at the current end of the feed (other test files approve transfers too). */
async function cursorAtEnd(): Promise<string> {
  let cursor = "";
  for (;;) {
    const page = await feed(`?limit=100${cursor ? `&since=${cursor}` : ""}`);
    expect(page.status).toBe(200);
    cursor = page.body.nextCursor;
    if (!page.body.hasMore) return cursor;
  }
}

beforeAll(async () => {
  partner = await createTestPartner("Feed sender");
  pharmacist = await createTestUser("pharmacist", "Fay Feed, PharmD");
  key = (await createIntegrationKey({ name: "Test interface engine", actor: SYSTEM_ACTOR })).integrationKey;
});

describe("the integration feed", () => {
  it("never skips nor repeats a transfer while approvals commit concurrently with a reader paging", async () => {
    const ids = await Promise.all(Array.from({ length: 36 }, () => receive()));
    let cursor = await cursorAtEnd();
    const seen: string[] = [];
    let approving = true;
    const reader = (async () => {
      // Small pages, as fast as the server answers, until the approvals are over and one more read finds nothing new.
      for (;;) {
        const stillApproving = approving;
        const page = await feed(`?limit=3&since=${cursor}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((i) => i.referenceID));
        cursor = page.body.nextCursor;
        if (!stillApproving && !page.body.hasMore && page.body.items.length === 0) return;
      }
    })();
    // Six pharmacists' worth of approvals at once, in waves, so commits interleave with the reader's pages.
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let id = queue.shift(); id; id = queue.shift()) {
          await approveTransfer({
            transferId: id,
            actor: actor(),
            clientAddress: null,
            approval: { localRxNumber: `F-${id.slice(-6)}` },
          });
        }
      }),
    );
    approving = false;
    await reader;

    expect(new Set(seen).size).toBe(seen.length); // no repeat
    expect([...seen].sort()).toEqual([...ids].sort()); // no skip, nothing else
    // In approval (commit) order: the feed's own sequence.
    const order = await db().integrationFeedEntry.findMany({
      where: { transferId: { in: ids } },
      orderBy: { seq: "asc" },
      select: { transferId: true },
    });
    expect(seen).toEqual(order.map((o) => o.transferId));
  }, 120_000);

  /** Two approved transfers whose feed entries this test then writes itself, in transactions it controls. */
  async function twoApprovedWithoutEntries(): Promise<[string, string]> {
    const [a, b] = [await receive(), await receive()];
    for (const id of [a, b])
      await approveTransfer({ transferId: id, actor: actor(), clientAddress: null, approval: {} });
    await db().integrationFeedPending.deleteMany({ where: { transferId: { in: [a, b] } } });
    await db().integrationFeedEntry.deleteMany({ where: { transferId: { in: [a, b] } } });
    return [a, b];
  }

  /** A transaction held open after `work` until the returned release is called. */
  async function heldOpen(work: (tx: Prisma.TransactionClient) => Promise<unknown>) {
    let release!: () => void;
    const mayCommit = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const workDone = new Promise<void>((resolve) => (started = resolve));
    const done = db().$transaction(
      async (tx) => {
        await work(tx);
        started();
        await mayCommit;
      },
      { timeout: 30_000 },
    );
    await workDone;
    return { release, done };
  }

  function reader(start: string) {
    let cursor = start;
    const seen: string[] = [];
    const read = async () => {
      const page = await feed(`?since=${cursor}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i) => i.referenceID));
      cursor = page.body.nextCursor;
    };
    return { seen, read };
  }

  it("still gives an approval that commits late, after one that committed first: approvals take no feed lock", async () => {
    const [a, b] = await twoApprovedWithoutEntries();
    const { seen, read } = reader(await cursorAtEnd());
    // A queues its entry and stays open; B queues and commits without waiting for A.
    const txA = await heldOpen((tx) => appendFeedEntry(tx, { transferId: a, approvedAt: new Date() }));
    await db().$transaction((tx) => appendFeedEntry(tx, { transferId: b, approvedAt: new Date() }), {
      timeout: 5_000,
    });
    await read();
    expect(seen).toEqual([b]);
    txA.release();
    await txA.done;
    await read();
    await read();
    expect(seen).toEqual([b, a]);
  }, 60_000);

  it("numbers one numberer at a time: a read waits for a numberer still committing, so its cursor cannot skip", async () => {
    // Were numbers taken without the lock, the read below would number B after A's uncommitted number, answer
    // B, move its cursor past A's number, and A (committed a moment later) would never be seen.
    const [a, b] = await twoApprovedWithoutEntries();
    const { seen, read } = reader(await cursorAtEnd());
    // A numberer has given A its number and not committed yet (A's entry is its own, so no row lock is shared).
    const numbering = await heldOpen(async (tx) => {
      await appendFeedEntry(tx, { transferId: a, approvedAt: new Date() });
      await numberFeedEntriesIn(tx);
    });
    await db().$transaction((tx) => appendFeedEntry(tx, { transferId: b, approvedAt: new Date() }));
    let answered = false;
    const reading = read().then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    numbering.release();
    await numbering.done;
    await reading;
    await read();
    expect(seen).toEqual([a, b]);
  }, 60_000);

  it("answers each transfer with a FHIR R4 Bundle that is valid against the official schema", async () => {
    const id = await receive();
    const start = await cursorAtEnd();
    await approveTransfer({
      transferId: id,
      actor: actor(),
      clientAddress: null,
      approval: { localRxNumber: "LOCAL-77" },
    });
    const page = await feed(`?since=${start}`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i) => i.referenceID)).toEqual([id]);
    // Continuing from the item's own cursor gives nothing more.
    expect((await feed(`?since=${page.body.items[0]!.cursor}`)).body.items).toEqual([]);
    // Checked after the last request: compiling the schema blocks for seconds, past the server's keep-alive.
    const bundle = page.body.items[0]!.bundle;
    expect(fhirSchemaErrors(bundle)).toEqual([]);
    const mr = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === "MedicationRequest")!;
    expect(JSON.stringify(mr)).toContain("LOCAL-77");
  }, 60_000);

  it("refuses a missing, unknown or revoked key with 401 problem+json and WWW-Authenticate", async () => {
    const created = await createIntegrationKey({ name: "To revoke", actor: SYSTEM_ACTOR });
    expect((await feed("", `Bearer ${created.integrationKey}`)).status).toBe(200);
    await revokeIntegrationKey({ keyId: created.keyId, actor: SYSTEM_ACTOR });
    for (const authorization of [null, `Bearer ${created.integrationKey}`, "Bearer rxi_unknown", `Basic ${key}`]) {
      const answer = await feed("", authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer realm="integration"/);
      expect(answer.body.type).toBe("urn:rx-transfer:problem:unauthorized");
    }
    const audit = await db().auditEvent.findFirst({
      where: { action: "integration_key.revoked" },
      orderBy: { id: "desc" },
    });
    expect(audit?.details).toMatchObject({ keyId: created.keyId });
  });

  it("answers a cursor it cannot parse, or a bad limit, with 400 problem+json", async () => {
    const bad = [
      "not-a-cursor",
      "ZjE6LTE",
      Buffer.from("f1:abc").toString("base64url"),
      Buffer.from("f2:1").toString("base64url"),
      "%00",
      "a".repeat(200),
    ];
    for (const since of bad) {
      const answer = await feed(`?since=${encodeURIComponent(since)}`);
      expect(answer.status, since).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    for (const limit of ["0", "101", "x", "-1"]) expect((await feed(`?limit=${limit}`)).status, limit).toBe(400);
  });
});

describe("the Bundle of one transfer", () => {
  it("downloads from the dashboard for an approved transfer only, audited", async () => {
    const id = await receive();
    const cookie = await signedInCookie(baseUrl, pharmacist);
    expect((await dashboardFetch(baseUrl, `/api/transfers/${id}/fhir`, { cookie })).status).toBe(409);
    await approveTransfer({ transferId: id, actor: actor(), clientAddress: null, approval: {} });
    const answer = await dashboardFetch<Bundle>(baseUrl, `/api/transfers/${id}/fhir`, { cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/fhir+json");
    expect(answer.headers.get("content-disposition")).toContain(`${id}.fhir.json`);
    expect(answer.body.type).toBe("transaction");
    expect(await db().auditEvent.count({ where: { action: "transfer.fhir_downloaded", transferId: id } })).toBe(1);
    expect((await dashboardFetch(baseUrl, `/api/transfers/${id}/fhir`)).status).toBe(401);
    expect(fhirSchemaErrors(answer.body)).toEqual([]);
  });

  it("prints from `npm run cli -- transfers fhir <referenceID>`", async () => {
    const id = await receive();
    await approveTransfer({ transferId: id, actor: actor(), clientAddress: null, approval: {} });
    const run = await runCli(["transfers", "fhir", id], { DATABASE_URL: databaseUrl, ...TEST_SECRETS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ resourceType: "Bundle", type: "transaction", identifier: { value: id } });
    expect(fhirSchemaErrors(run.json)).toEqual([]);
    const missing = await runCli(["transfers", "fhir", "trf_missing"], { DATABASE_URL: databaseUrl, ...TEST_SECRETS });
    expect(missing.code).not.toBe(0);
  }, 60_000);
});
