// Retries and duplicates (docs/interface.md): the sender's requestID is the idempotency key, per sender; one live
// transfer per prescription. Enforced by the database, so concurrent copies create one transfer.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let auth: string;

beforeAll(async () => {
  partner = await createTestPartner("Idempotency");
  auth = senderKey(partner.apiKey);
});

describe("retries", () => {
  it("replays the first answer for the same request, even with a new retryCount and requestTimestamp", async () => {
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    expect(first.status).toBe(200);
    const retry = structuredClone(request);
    retry.metadata.retryCount = 3;
    retry.metadata.requestTimestamp = new Date().toISOString();
    const second = await send(baseUrl, { body: retry, authorization: auth });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().transfer.count({ where: { requestId: request.metadata.requestID } })).toBe(1);
  });

  it("replays across credentials of the same sender (API key, then OAuth)", async () => {
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    const t = await fetch(`${baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      }),
    });
    const { access_token } = (await t.json()) as { access_token: string };
    const second = await send(baseUrl, { body: request, authorization: `Bearer ${access_token}` });
    expect(second.body.metadata.referenceID).toBe(first.body.metadata.referenceID);
  });

  it("answers DUPLICATE_REQUEST for the same requestID with other content, naming the first transfer", async () => {
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    const changed = structuredClone(request);
    changed.prescription.sig = "Take two tablets by mouth daily";
    const second = await send(baseUrl, { body: changed, authorization: auth });
    expectEnvelope(second);
    expect(second.status).toBe(400);
    expect(second.body.error?.type).toBe("DUPLICATE_REQUEST");
    expect(second.body.error?.description).toContain("metadata.requestID");
    expect(second.body.metadata.referenceID).toBe(first.body.metadata.referenceID);
    expect(second.body.requestID).toBe(request.metadata.requestID);
  });

  it("lets two senders use the same requestID independently", async () => {
    const other = await createTestPartner("Same requestID");
    const a = freshRequest();
    const b = freshRequest((r) => (r.metadata.requestID = a.metadata.requestID));
    const first = await send(baseUrl, { body: a, authorization: auth });
    const second = await send(baseUrl, { body: b, authorization: senderKey(other.apiKey) });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.metadata.referenceID).not.toBe(first.body.metadata.referenceID);
  });
});

describe("duplicate prescriptions", () => {
  it("answers DUPLICATE_REQUEST for a new requestID of a prescription already RECEIVED, naming it", async () => {
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    const again = freshRequest((r) => {
      r.prescription.rxNumber = request.prescription.rxNumber;
      r.sendingPharmacy.npi = request.sendingPharmacy.npi;
    });
    const second = await send(baseUrl, { body: again, authorization: auth });
    expect(second.status).toBe(400);
    expect(second.body.error?.type).toBe("DUPLICATE_REQUEST");
    expect(second.body.error?.description).toContain(first.body.metadata.referenceID);
    expect(second.body.requestID).toBe(again.metadata.requestID);
  });

  it("accepts the prescription again after it was rejected", async () => {
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: auth });
    await db().transfer.update({
      where: { id: first.body.metadata.referenceID },
      data: { status: "REJECTED", activeRxKey: null },
    });
    const resend = freshRequest((r) => (r.prescription.rxNumber = request.prescription.rxNumber));
    const second = await send(baseUrl, { body: resend, authorization: auth });
    expect(second.status).toBe(200);
    expect(second.body.metadata.referenceID).not.toBe(first.body.metadata.referenceID);
  });
});

describe("concurrency", () => {
  it("20 concurrent copies of one request create one transfer and all get its answer", async () => {
    const request = freshRequest();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send(baseUrl, { body: request, authorization: auth })),
    );
    for (const a of answers) expectEnvelope(a);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.metadata.referenceID)).size).toBe(1);
    expect(await db().transfer.count({ where: { requestId: request.metadata.requestID } })).toBe(1);
  });

  it("20 concurrent requests for one prescription under different requestIDs create one transfer", async () => {
    const rx = `RX${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(baseUrl, { body: freshRequest((r) => (r.prescription.rxNumber = rx)), authorization: auth }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    const duplicates = answers.filter((a) => a.body.error?.type === "DUPLICATE_REQUEST");
    expect(created).toHaveLength(1);
    expect(duplicates).toHaveLength(19);
    for (const d of duplicates) expect(d.body.metadata.referenceID).toBe(created[0]!.body.metadata.referenceID);
    expect(await db().transfer.count({ where: { rxNumber: rx } })).toBe(1);
  });
});
