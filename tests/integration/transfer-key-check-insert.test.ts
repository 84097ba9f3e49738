// Once the server has seen an API key valid, the intake checks the key inside its insert statement
// instead of looking it up first. A key that is revoked, expires, or whose partner is suspended or changes its
// NPIs must still be refused on its very next request, with the answer it always had, and nothing stored.
import { beforeEach, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "@/lib/auth/api-keys";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let key: CreatedApiKey;

async function stored(request: TransferRequest): Promise<number> {
  return db().transfer.count({ where: { partnerId: partner.partnerId, requestId: request.metadata.requestID } });
}

/** Two accepted requests: the server now knows the key, so the next request takes the one-statement path. */
async function useKey(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const request = freshRequest();
    const answer = await send(baseUrl, { body: request, authorization: senderKey(key.apiKey) });
    expect(answer.status).toBe(200);
    expect(await stored(request)).toBe(1);
  }
}

async function expectRefusedAndNotStored(status: number, words: string): Promise<void> {
  const request = freshRequest();
  const answer = await send(baseUrl, { body: request, authorization: senderKey(key.apiKey) });
  expectEnvelope(answer);
  expect(answer.status).toBe(status);
  // A 401 decided from the header alone (the key no longer known to this process) comes before the body is read.
  if (status === 401) expect([request.metadata.requestID, ""]).toContain(answer.body.requestID);
  else expect(answer.body.requestID).toBe(request.metadata.requestID);
  expect(answer.body.error?.description).toContain(words);
  if (status === 401) expect(answer.headers.get("www-authenticate")).toMatch(/senderKey/);
  expect(await stored(request)).toBe(0);
}

beforeEach(async () => {
  partner = await createTestPartner("Key check");
  key = await createApiKey({ partnerId: partner.partnerId });
});

describe("a known API key is checked again by the insert itself", () => {
  it("refuses a revoked key on its very next request and stores nothing", async () => {
    await useKey();
    await revokeApiKey({ keyId: key.keyId });
    await expectRefusedAndNotStored(401, "not valid: unknown, revoked or expired");
    await expectRefusedAndNotStored(401, "not valid: unknown, revoked or expired");
  });

  it("refuses a key on its very next request once it has expired", async () => {
    await useKey();
    await db().apiKey.update({ where: { id: key.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectRefusedAndNotStored(401, "not valid");
  });

  it("refuses a suspended partner's key on its very next request, and takes it again once reinstated", async () => {
    await useKey();
    await db().partner.update({ where: { id: partner.partnerId }, data: { suspendedAt: new Date() } });
    await expectRefusedAndNotStored(401, "not valid");
    await db().partner.update({ where: { id: partner.partnerId }, data: { suspendedAt: null } });
    await useKey();
  });

  it("sees the partner's NPIs change on the very next request", async () => {
    await useKey();
    await db().partner.update({ where: { id: partner.partnerId }, data: { npis: ["1234567893"] } });
    await expectRefusedAndNotStored(400, "sendingPharmacy.npi is not one of the pharmacies registered");
    await db().partner.update({ where: { id: partner.partnerId }, data: { npis: [DEMO_SENDING_NPI] } });
    await useKey();
  });

  it("answers a retry and a duplicate from a known key as before", async () => {
    await useKey();
    const request = freshRequest();
    const first = await send(baseUrl, { body: request, authorization: senderKey(key.apiKey) });
    expect(first.status).toBe(200);
    const retry = await send(baseUrl, { body: request, authorization: senderKey(key.apiKey) });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.metadata.referenceID).toBe(first.body.metadata.referenceID);
    const sameRx = freshRequest((r) => (r.prescription.rxNumber = request.prescription.rxNumber));
    const duplicate = await send(baseUrl, { body: sameRx, authorization: senderKey(key.apiKey) });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error?.type).toBe("DUPLICATE_REQUEST");
    expect(await stored(request)).toBe(1);
    expect(await stored(sameRx)).toBe(0);
  });

  it("still marks the key used, at most once a minute", async () => {
    await useKey();
    await db().$executeRaw`UPDATE api_keys SET last_used_at = now() - interval '5 minutes' WHERE id = ${key.keyId}`;
    const before = Date.now() - 60_000;
    const request = freshRequest();
    expect((await send(baseUrl, { body: request, authorization: senderKey(key.apiKey) })).status).toBe(200);
    const used = (await db().apiKey.findUniqueOrThrow({ where: { id: key.keyId } })).lastUsedAt;
    expect(used!.getTime()).toBeGreaterThan(before);
  });
});
