// The production server (`npm start`, which runs the callback worker in-process) delivering the callback
// of a decision to a real HTTP receiver: a pharmacist approves or rejects (the dashboard's own domain
// operations, which enqueue the callback inside the decision's transaction), and the sender gets a POST with
// the TransferResponse, Content-Type application/json, Standard Webhooks headers whose signature verifies
// (two signatures during a secret rotation), and its own outbound credential header.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";
import { receiveDemoCallback } from "@/lib/callbacks/demo-receiver";
import { webhookHeaders } from "@/lib/callbacks/signature";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db, disconnectDb } from "@/lib/db/prisma";
import { approveTransfer, rejectTransfer } from "@/lib/transfers/decision";
import type { TransferResponse } from "@/lib/interface";
import { createUser } from "@/lib/users/create-user";
import { freshRequest, send, senderKey } from "@/tests/support/api";
import { startCallbackReceiver, verifyStandardWebhook, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  callbackRow,
  createCallbackPartner,
  dashboardCallbackStatus,
  decideTransfer,
  waitUntil,
} from "./callbacks-fixtures";

const { baseUrl } = connectTestEnvironment();
let receiver: CallbackReceiver;
let pharmacist: { id: string; email: string; name: string; role: "pharmacist" };

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  const email = `cb-${randomUUID().slice(0, 8)}@pharmacy.test`;
  const { userId } = await createUser({
    email,
    password: randomBytes(12).toString("base64url"),
    role: "pharmacist",
    name: "Callback Tester, PharmD",
  });
  pharmacist = { id: userId, email, name: "Callback Tester, PharmD", role: "pharmacist" };
});

afterAll(async () => {
  await receiver?.close();
  await disconnectDb();
});

async function receive(apiKey: string) {
  const request = freshRequest();
  const answer = await send(baseUrl, { body: request, authorization: senderKey(apiKey) });
  expect(answer.status).toBe(200);
  return { request, received: answer.body };
}

describe("callback delivery by the server's own worker", () => {
  it("sends a signed CONFIRMED callback moments after approval: same requestID and referenceID, a new responseID, the prescription, the partner's credential, two signatures during a rotation", async () => {
    const port = new URL(receiver.baseUrl).port;
    // A host name (resolved once, then pinned): the Host header still names it.
    const partner = await createCallbackPartner(`http://localhost:${port}/approved?tenant=42`);
    const previousSecret = `whsec_${randomBytes(32).toString("base64")}`;
    await db().partner.update({
      where: { id: partner.partnerId },
      data: {
        outboundHeaderName: "Authorization",
        outboundHeaderValue: sealSecret("Bearer partner-own-token", secretOwner.outboundHeader(partner.partnerId)),
        previousWebhookSecret: sealSecret(previousSecret, secretOwner.webhookSecret(partner.partnerId)),
        previousSecretExpiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const { request, received } = await receive(partner.apiKey);
    const transferId = received.metadata.referenceID;

    const decided = await approveTransfer({
      transferId,
      actor: pharmacist,
      clientAddress: null,
      approval: { localRxNumber: "L-1001", note: undefined },
    });
    const committedAt = Date.now();
    const [delivery] = await receiver.waitFor("/approved", 1, 10_000);
    const latencyMs = delivery!.at - committedAt;
    process.stdout.write(`approve-to-callback latency: ${latencyMs} ms\n`);
    expect(latencyMs).toBeLessThan(3_000);

    expect(delivery!.method).toBe("POST");
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers.host).toBe(`localhost:${port}`);
    expect(delivery!.headers.authorization).toBe("Bearer partner-own-token");
    expect(delivery!.headers["webhook-id"]).toBe(decided.callbackId);
    expect(delivery!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Math.abs(Number(delivery!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    const signatures = String(delivery!.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    expect(verifyStandardWebhook(delivery!, partner.webhookSecret)).toBe(true);
    expect(verifyStandardWebhook(delivery!, previousSecret)).toBe(true);
    expect(verifyStandardWebhook(delivery!, `whsec_${randomBytes(32).toString("base64")}`)).toBe(false);

    const body = JSON.parse(delivery!.body) as TransferResponse;
    expect(body.requestID).toBe(request.metadata.requestID);
    expect(body.metadata.responseType).toBe("CONFIRMED");
    expect(body.metadata.referenceID).toBe(transferId);
    expect(body.metadata.responseID).not.toBe(received.metadata.responseID);
    expect(body.metadata.localRxNumber).toBe("L-1001");
    expect(body.prescription).toEqual(request.prescription);
    expect(body.error).toBeUndefined();
    expect(Object.keys(body)[0]).toBe("requestID");

    const row = await waitUntil("delivered", async () => {
      const r = await callbackRow(decided.callbackId);
      return r.status === "DELIVERED" ? r : null;
    });
    expect(row.attempts).toHaveLength(1);
    expect(row.attempts[0]).toMatchObject({ attemptNumber: 1, statusCode: 204, error: null, manual: false });
    expect(row.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await dashboardCallbackStatus(transferId)).toEqual({ queue: "DELIVERED", review: "DELIVERED" });
    // The sender can also read the outcome.
    const status = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${transferId}`,
      authorization: senderKey(partner.apiKey),
    });
    expect(status.body).toEqual(body);
  });

  it("sends an ERROR callback after a rejection, with the error type and description", async () => {
    const partner = await createCallbackPartner(`${receiver.baseUrl}/rejected`);
    const { request, received } = await receive(partner.apiKey);
    const decided = await rejectTransfer({
      transferId: received.metadata.referenceID,
      actor: pharmacist,
      clientAddress: null,
      rejection: {
        errorType: "INVALID_INFO",
        description: "prescription.refillsRemaining: no refills left to transfer",
      },
    });
    const [delivery] = await receiver.waitFor("/rejected", 1, 10_000);
    expect(verifyStandardWebhook(delivery!, partner.webhookSecret)).toBe(true);
    expect(delivery!.headers["webhook-id"]).toBe(decided.callbackId);
    expect(delivery!.headers["webhook-signature"]).not.toContain(" ");
    expect(delivery!.headers.authorization).toBeUndefined();
    const body = JSON.parse(delivery!.body) as TransferResponse;
    expect(body).toMatchObject({
      requestID: request.metadata.requestID,
      metadata: { responseType: "ERROR", referenceID: received.metadata.referenceID },
      error: { type: "INVALID_INFO", description: "prescription.refillsRemaining: no refills left to transfer" },
    });
    expect(body.prescription).toBeUndefined();
  });

  it("does not send a callback for a decision whose transaction rolled back", async () => {
    const partner = await createCallbackPartner(`${receiver.baseUrl}/rolled-back`);
    const { received } = await receive(partner.apiKey);
    const { enqueueCallback } = await import("@/lib/callbacks/enqueue-callback");
    await expect(
      db().$transaction(async (tx) => {
        await enqueueCallback(tx, {
          transferId: received.metadata.referenceID,
          partnerId: partner.partnerId,
          response: received,
        });
        throw new Error("the decision failed after the outbox entry was written");
      }),
    ).rejects.toThrow(/decision failed/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests("/rolled-back")).toHaveLength(0);
    expect(await db().callback.count({ where: { transferId: received.metadata.referenceID } })).toBe(0);
  });
});

describe("the dashboard API and the demo receiver", () => {
  it("refuses redelivery to someone not signed in, as problem+json", async () => {
    const res = await fetch(`${baseUrl}/api/transfers/trf_x/callbacks/redeliver`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("has a demo receiver (development) that accepts a callback signed with its partner's secret and refuses others", async () => {
    const partner = await createCallbackPartner(`${receiver.baseUrl}/demo-check`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED", baseUrl });
    const body = serializeCallbackBody(decided.outcome);
    const signed = (b: string, id = decided.callbackId, secret = partner.webhookSecret) =>
      new Headers(webhookHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body: b, secrets: [secret] }));
    expect(await receiveDemoCallback({ headers: signed(body), body })).toEqual({ accepted: true });
    expect(
      await receiveDemoCallback({ headers: signed(body), body: body.replace("CONFIRMED", "ERROR") }),
    ).toMatchObject({ accepted: false });
    expect(
      await receiveDemoCallback({
        headers: signed(body, decided.callbackId, `whsec_${randomBytes(32).toString("base64")}`),
        body,
      }),
    ).toMatchObject({ accepted: false });
    expect(await receiveDemoCallback({ headers: signed(body, "msg_unknown"), body })).toEqual({
      accepted: false,
      reason: "unknown webhook-id",
    });
  });

  it("serves no demo receiver in production", async () => {
    const res = await fetch(`${baseUrl}/demo/callbacks`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
      redirect: "manual",
    });
    expect(res.status).toBe(404);
  });
});
