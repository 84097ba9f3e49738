// The decision rules against real PostgreSQL: a transfer is decided exactly once whatever runs at the same
// moment (row lock + the transfer_decisions primary key), claims exclude each other, the decision and the
// sender's TransferResponse commit together with the callback outbox row and the audit record, a
// rejection frees the prescription, and the outcome is visible at once through GET /v1/transfer/{id}.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import {
  claimTransfer,
  releaseClaim,
  approveTransfer,
  AlreadyDecidedError,
  ClaimHeldError,
  rejectTransfer,
} from "@/lib/transfers/decision";
import { TransferResponseSchema, type TransferRequest, type TransferResponse } from "@/lib/interface";
import { DomainError } from "@/lib/errors";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const actor = (u: TestUser) => ({ id: u.id, email: u.email, name: u.name, role: u.role });

async function receive(
  change?: (r: TransferRequest) => void,
): Promise<{ id: string; request: TransferRequest; received: TransferResponse }> {
  const request = freshRequest(change);
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return { id: answer.body.metadata.referenceID, request, received: answer.body };
}

beforeAll(async () => {
  partner = await createTestPartner("Decisions");
  alice = await createTestUser("pharmacist", "Alice Moreno, PharmD");
  bob = await createTestUser("pharmacist", "Bob Okafor, RPh");
  admin = await createTestUser("admin", "Ada Admin");
});

describe("approving", () => {
  it("writes the decision, a CONFIRMED response with the sender's prescription, the callback and the audit record in one go", async () => {
    const { id, request, received } = await receive();
    const result = await approveTransfer({
      transferId: id,
      actor: actor(alice),
      clientAddress: "203.0.113.7",
      // A stricter schedule than the drug's (atorvastatin: not controlled) may be recorded; III-V needs the one-time confirmation.
      approval: {
        drugSchedule: "CIV",
        oneTimeTransferConfirmed: true,
        localRxNumber: "R-1001",
        note: "verified by phone",
      },
    });

    const response = TransferResponseSchema.parse(result.response);
    expect(response.metadata.responseType).toBe("CONFIRMED");
    expect(response.requestID).toBe(request.metadata.requestID);
    expect(response.metadata.referenceID).toBe(id);
    expect(response.metadata.responseID).not.toBe(received.metadata.responseID);
    expect(response.metadata.localRxNumber).toBe("R-1001");
    expect(response.prescription).toEqual(request.prescription);
    expect(response.error).toBeUndefined();

    const transfer = await db().transfer.findUniqueOrThrow({
      where: { id },
      include: { decision: true, callback: true },
    });
    expect(transfer.status).toBe("CONFIRMED");
    expect(transfer.decidedAt).not.toBeNull();
    expect(transfer.outcome).toEqual(response);
    expect(transfer.activeRxKey).not.toBeNull();
    expect(transfer.claimedById).toBeNull();
    expect(transfer.decision).toMatchObject({
      decision: "APPROVED",
      userId: alice.id,
      pharmacistName: "Alice Moreno, PharmD",
      drugSchedule: "CIV",
      scheduleBasis: "set by pharmacist: C-IV (detected: atorvastatin, not controlled)",
      oneTimeTransferConfirmed: true,
      localRxNumber: "R-1001",
      note: "verified by phone",
    });
    expect(transfer.decision?.response).toEqual(response);
    expect(transfer.callback).toMatchObject({ partnerId: partner.partnerId, status: "PENDING", payload: response });

    const audit = await db().auditEvent.findFirstOrThrow({ where: { transferId: id, action: "transfer.approved" } });
    expect(audit).toMatchObject({ userId: alice.id, actor: alice.email, clientAddress: "203.0.113.7" });
  });

  it("shows the outcome at once to the sender through GET /v1/transfer/{referenceID}", async () => {
    const { id } = await receive();
    const result = await approveTransfer({ transferId: id, actor: actor(alice), clientAddress: null, approval: {} });
    const lookup = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${id}`,
      authorization: senderKey(partner.apiKey),
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual(result.response);
    expect(lookup.body.metadata.responseType).toBe("CONFIRMED");
    expect(lookup.body.metadata.localRxNumber).toBeUndefined();
  });

  it("refuses an expired prescription: it must be rejected with RX_EXPIRED", async () => {
    const { id } = await receive();
    await db()
      .$executeRaw`UPDATE transfers SET request = jsonb_set(request, '{prescription,expirationDate}', '"2020-01-01T00:00:00Z"') WHERE id = ${id}`;
    await expect(
      approveTransfer({ transferId: id, actor: actor(alice), clientAddress: null, approval: {} }),
    ).rejects.toThrow(/expired.*RX_EXPIRED/);
    const rejected = await rejectTransfer({
      transferId: id,
      actor: actor(alice),
      clientAddress: null,
      rejection: { errorType: "RX_EXPIRED", description: "prescription.expirationDate has passed" },
    });
    expect(rejected.response.error?.type).toBe("RX_EXPIRED");
  });

  it("is a pharmacist's act: an admin is refused", async () => {
    const { id } = await receive();
    await expect(
      approveTransfer({ transferId: id, actor: actor(admin), clientAddress: null, approval: {} }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect((await db().transfer.findUniqueOrThrow({ where: { id } })).status).toBe("RECEIVED");
  });
});

describe("rejecting", () => {
  it("answers ERROR with the pharmacist's type and description and frees the prescription to be sent again", async () => {
    const { id, request } = await receive();
    const description = "prescription.quantityDispensed does not match the sig: please resend with 30 tablets";
    const result = await rejectTransfer({
      transferId: id,
      actor: actor(bob),
      clientAddress: null,
      rejection: { errorType: "INVALID_INFO", description },
    });

    const response = TransferResponseSchema.parse(result.response);
    expect(response).toMatchObject({
      requestID: request.metadata.requestID,
      metadata: { responseType: "ERROR", referenceID: id },
      error: { type: "INVALID_INFO", description },
    });
    expect(response.prescription).toBeUndefined();

    const transfer = await db().transfer.findUniqueOrThrow({ where: { id }, include: { decision: true } });
    expect(transfer.status).toBe("REJECTED");
    expect(transfer.activeRxKey).toBeNull();
    expect(transfer.decision).toMatchObject({
      decision: "REJECTED",
      errorType: "INVALID_INFO",
      description,
      userId: bob.id,
    });

    const lookup = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${id}`,
      authorization: senderKey(partner.apiKey),
    });
    expect(lookup.body).toEqual(response);

    // The same prescription (sending NPI + rxNumber) under a new requestID is accepted again.
    const again = structuredClone(request);
    again.metadata.requestID = `${request.metadata.requestID}-resent`;
    const resent = await send(baseUrl, { body: again, authorization: senderKey(partner.apiKey) });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.metadata.responseType).toBe("RECEIVED");
    expect(resent.body.metadata.referenceID).not.toBe(id);
  });

  it("an approved prescription stays live: sending it again is a DUPLICATE_REQUEST", async () => {
    const { id, request } = await receive();
    await approveTransfer({ transferId: id, actor: actor(alice), clientAddress: null, approval: {} });
    const again = structuredClone(request);
    again.metadata.requestID = `${request.metadata.requestID}-again`;
    const answer = await send(baseUrl, { body: again, authorization: senderKey(partner.apiKey) });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.type).toBe("DUPLICATE_REQUEST");
  });
});

describe("exactly once", () => {
  it("eight pharmacists deciding one transfer at the same moment: one wins, the others are told who and when", async () => {
    const { id } = await receive();
    const pharmacists = [
      alice,
      bob,
      ...(await Promise.all(Array.from({ length: 6 }, (_, i) => createTestUser("pharmacist", `Racer ${i}`)))),
    ];
    const results = await Promise.allSettled(
      pharmacists.map((p, i) =>
        i % 2 === 0
          ? approveTransfer({ transferId: id, actor: actor(p), clientAddress: null, approval: {} })
          : rejectTransfer({
              transferId: id,
              actor: actor(p),
              clientAddress: null,
              rejection: { errorType: "OTHER", description: `racer ${i}` },
            }),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(7);
    const winner = (won[0] as PromiseFulfilledResult<{ decidedBy: string; decision: string }>).value;
    for (const l of lost) {
      expect(l.reason).toBeInstanceOf(AlreadyDecidedError);
      expect((l.reason as AlreadyDecidedError).extensions).toMatchObject({
        decidedBy: winner.decidedBy,
        decision: winner.decision,
      });
      expect((l.reason as Error).message).toContain(winner.decidedBy);
    }
    expect(await db().transferDecision.count({ where: { transferId: id } })).toBe(1);
    expect(await db().callback.count({ where: { transferId: id } })).toBe(1);
    expect(
      await db().auditEvent.count({
        where: { transferId: id, action: { in: ["transfer.approved", "transfer.rejected"] } },
      }),
    ).toBe(1);
    expect(await db().auditEvent.count({ where: { transferId: id, action: "transfer.decision_refused" } })).toBe(7);
  });

  it("over HTTP, two browsers confirming at once: one 200, one 409 problem+json naming the winner", async () => {
    const { id } = await receive();
    const [cookieA, cookieB] = await Promise.all([signedInCookie(baseUrl, alice), signedInCookie(baseUrl, bob)]);
    const [a, b] = await Promise.all([
      dashboardFetch<{ decidedBy: string }>(baseUrl, `/api/transfers/${id}/approve`, {
        cookie: cookieA,
        method: "POST",
        body: {},
      }),
      dashboardFetch<{ decidedBy: string }>(baseUrl, `/api/transfers/${id}/reject`, {
        cookie: cookieB,
        method: "POST",
        body: { errorType: "OTHER", description: "race" },
      }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winnerName = a.status === 200 ? alice.name : bob.name;
    expect(loser.headers.get("content-type")).toContain("application/problem+json");
    expect(loser.body).toMatchObject({ status: 409, reason: "already_decided", decidedBy: winnerName });
  });

  it("if the row lock were bypassed, the primary key still refuses the second decision, as a 409 and not a 500", async () => {
    const { id } = await receive();
    // Another decision row appears while the transfer still says RECEIVED (as if a second writer raced past the lock).
    await db().transferDecision.create({
      data: {
        transferId: id,
        decision: "APPROVED",
        userId: bob.id,
        pharmacistName: bob.name,
        response: { requestID: "x", metadata: {} },
      },
    });
    const error = await approveTransfer({
      transferId: id,
      actor: actor(alice),
      clientAddress: null,
      approval: {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AlreadyDecidedError);
    expect((error as AlreadyDecidedError).message).toContain(bob.name);
    expect((await db().transfer.findUniqueOrThrow({ where: { id } })).status).toBe("RECEIVED");
    expect(await db().callback.count({ where: { transferId: id } })).toBe(0);
  });

  it("a decision row is immutable: the database refuses UPDATE and DELETE", async () => {
    const { id } = await receive();
    await approveTransfer({ transferId: id, actor: actor(alice), clientAddress: null, approval: {} });
    await expect(
      db().$executeRaw`UPDATE transfer_decisions SET pharmacist_name = 'someone else' WHERE transfer_id = ${id}`,
    ).rejects.toThrow(/append-only/);
    await expect(db().$executeRaw`DELETE FROM transfer_decisions WHERE transfer_id = ${id}`).rejects.toThrow(
      /append-only/,
    );
    expect((await db().transferDecision.findUniqueOrThrow({ where: { transferId: id } })).pharmacistName).toBe(
      alice.name,
    );
  });
});

describe("claims", () => {
  it("one holder at a time; others are told who holds it; deciding needs the claim or a free transfer", async () => {
    const { id } = await receive();
    const claim = await claimTransfer({ transferId: id, actor: actor(alice), clientAddress: null });
    expect(claim).toMatchObject({ heldBy: alice.name, heldById: alice.id });

    const refused = await claimTransfer({ transferId: id, actor: actor(bob), clientAddress: null }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ClaimHeldError);
    expect((refused as ClaimHeldError).extensions).toMatchObject({ heldBy: alice.name });

    const decideRefused = await approveTransfer({
      transferId: id,
      actor: actor(bob),
      clientAddress: null,
      approval: {},
    }).catch((e: unknown) => e);
    expect(decideRefused).toBeInstanceOf(ClaimHeldError);

    // Renewing one's own claim extends it and is not a new audit record.
    const renewed = await claimTransfer({ transferId: id, actor: actor(alice), clientAddress: null });
    expect(new Date(renewed.claimExpiresAt).getTime()).toBeGreaterThanOrEqual(new Date(claim.claimExpiresAt).getTime());
    expect(await db().auditEvent.count({ where: { transferId: id, action: "transfer.claimed" } })).toBe(1);

    // A lapsed claim can be taken over.
    await db().$executeRaw`UPDATE transfers SET claim_expires_at = now() - interval '1 second' WHERE id = ${id}`;
    expect(await claimTransfer({ transferId: id, actor: actor(bob), clientAddress: null })).toMatchObject({
      heldById: bob.id,
    });
    expect(await releaseClaim({ transferId: id, actor: actor(alice), clientAddress: null })).toBe(false);
    expect(await releaseClaim({ transferId: id, actor: actor(bob), clientAddress: null })).toBe(true);

    const result = await approveTransfer({ transferId: id, actor: actor(alice), clientAddress: null, approval: {} });
    expect(result.decidedBy).toBe(alice.name);
    const late = await claimTransfer({ transferId: id, actor: actor(bob), clientAddress: null }).catch(
      (e: unknown) => e,
    );
    expect(late).toBeInstanceOf(AlreadyDecidedError);
  });

  it("five pharmacists claiming a free transfer at once: exactly one holds it", async () => {
    const { id } = await receive();
    const people = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestUser("pharmacist", `Claimer ${i}`)));
    const results = await Promise.allSettled(
      people.map((p) => claimTransfer({ transferId: id, actor: actor(p), clientAddress: null })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ClaimHeldError);
    const row = await db().transfer.findUniqueOrThrow({ where: { id } });
    expect(row.claimedById).toBe((won[0] as PromiseFulfilledResult<{ heldById: string }>).value.heldById);
  });

  it("the same pharmacist claiming twice at once (a review page opened under React's development double-invocation) is one audited claim", async () => {
    const { id } = await receive();
    const cookie = await signedInCookie(baseUrl, alice);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          dashboardFetch(baseUrl, `/api/transfers/${id}/claim`, { cookie, method: "POST" }),
        ),
      );
      for (const a of answers) expect(a.status, a.text).toBe(200);
    }
    expect(await db().auditEvent.count({ where: { transferId: id, action: "transfer.claimed" } })).toBe(1);
  });

  it("an unknown transfer is not found", async () => {
    await expect(
      claimTransfer({ transferId: "trf_doesnotexist", actor: actor(alice), clientAddress: null }),
    ).rejects.toMatchObject({ code: "not_found" });
    const error = await approveTransfer({
      transferId: "trf_doesnotexist",
      actor: actor(alice),
      clientAddress: null,
      approval: {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("not_found");
  });
});

describe("the decision API", () => {
  it("validates the rejection: an error type of the interface and a description", async () => {
    const { id } = await receive();
    const cookie = await signedInCookie(baseUrl, alice);
    const bad = await dashboardFetch<{ fields: { field: string }[] }>(baseUrl, `/api/transfers/${id}/reject`, {
      cookie,
      method: "POST",
      body: { errorType: "NOPE", description: "  " },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    expect(bad.body.fields.map((f) => f.field).sort()).toEqual(["description", "errorType"]);
    expect((await db().transfer.findUniqueOrThrow({ where: { id } })).status).toBe("RECEIVED");
  });

  it("claims over HTTP and answers 409 with the holder's name to another pharmacist", async () => {
    const { id } = await receive();
    const [cookieA, cookieB] = await Promise.all([signedInCookie(baseUrl, alice), signedInCookie(baseUrl, bob)]);
    const mine = await dashboardFetch(baseUrl, `/api/transfers/${id}/claim`, { cookie: cookieA, method: "POST" });
    expect(mine.status).toBe(200);
    const theirs = await dashboardFetch<{ heldBy: string; reason: string }>(baseUrl, `/api/transfers/${id}/claim`, {
      cookie: cookieB,
      method: "POST",
    });
    expect(theirs.status).toBe(409);
    expect(theirs.body).toMatchObject({ reason: "claimed_by_other", heldBy: alice.name });
    const status = await dashboardFetch<{ claim: { heldBy: string } }>(baseUrl, `/api/transfers/${id}/status`, {
      cookie: cookieB,
    });
    expect(status.body.claim.heldBy).toBe(alice.name);
    expect(
      (await dashboardFetch(baseUrl, `/api/transfers/${id}/claim`, { cookie: cookieA, method: "DELETE" })).status,
    ).toBe(200);
  });

  it("refuses an admin's decision (403) and a cross-site request (403)", async () => {
    const { id } = await receive();
    const adminCookie = await signedInCookie(baseUrl, admin);
    const byAdmin = await dashboardFetch(baseUrl, `/api/transfers/${id}/approve`, {
      cookie: adminCookie,
      method: "POST",
      body: {},
    });
    expect(byAdmin.status).toBe(403);
    const cookie = await signedInCookie(baseUrl, alice);
    const crossSite = await dashboardFetch(baseUrl, `/api/transfers/${id}/approve`, {
      cookie,
      method: "POST",
      body: {},
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect((await db().transfer.findUniqueOrThrow({ where: { id } })).status).toBe("RECEIVED");
  });

  it("records the timeline: received, viewed by whom, claimed, decided, callback queued", async () => {
    const { id } = await receive();
    const cookie = await signedInCookie(baseUrl, alice);
    expect(
      (
        await dashboardFetch(baseUrl, `/api/transfers/${id}`, {
          cookie,
          headers: { "x-forwarded-for": "198.51.100.23" },
        })
      ).status,
    ).toBe(200);
    await dashboardFetch(baseUrl, `/api/transfers/${id}/claim`, { cookie, method: "POST" });
    expect(
      (
        await dashboardFetch(baseUrl, `/api/transfers/${id}/approve`, {
          cookie,
          method: "POST",
          body: { localRxNumber: "L-9" },
        })
      ).status,
    ).toBe(200);
    const status = await dashboardFetch<{ timeline: { kind: string; text: string }[] }>(
      baseUrl,
      `/api/transfers/${id}/status`,
      { cookie },
    );
    const kinds = status.body.timeline.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["received", "viewed", "claimed", "approved", "callback_queued"]));
    expect(kinds[0]).toBe("received");
    expect(status.body.timeline.find((e) => e.kind === "viewed")?.text).toContain(alice.name);
    const viewed = await db().auditEvent.findFirstOrThrow({ where: { transferId: id, action: "transfer.viewed" } });
    // The forged X-Forwarded-For above is not believed: the socket's address is recorded.
    expect(viewed).toMatchObject({ userId: alice.id, clientAddress: "127.0.0.1" });
  });
});
