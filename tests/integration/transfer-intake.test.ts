// POST /v1/transfer and GET /v1/transfer/{referenceID} over real HTTP against real PostgreSQL: what is
// stored, every error type with its status, and the envelope on every kind of bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
let auth: string;

beforeAll(async () => {
  partner = await createTestPartner("Intake");
  auth = senderKey(partner.apiKey);
});

describe("a valid transfer", () => {
  it("is answered RECEIVED with complete metadata and stored with its normalised columns", async () => {
    const request = freshRequest();
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(200);
    expect(answer.body.requestID).toBe(request.metadata.requestID);
    expect(answer.body.metadata.responseType).toBe("RECEIVED");
    expect(answer.body.metadata.referenceID).toMatch(/^trf_/);
    expect(answer.body.error).toBeUndefined();
    expect(answer.body.prescription).toBeUndefined();
    expect(answer.headers.get("x-request-id")).toBeTruthy();

    const row = await db().transfer.findUniqueOrThrow({ where: { id: answer.body.metadata.referenceID } });
    expect(row.status).toBe("RECEIVED");
    expect(row.partnerId).toBe(partner.partnerId);
    expect(row.requestId).toBe(request.metadata.requestID);
    expect(row.patientLastName).toBe(request.patient.name.lastName);
    expect(row.patientDob.toISOString().slice(0, 10)).toBe(request.patient.dateOfBirth);
    expect(row.rxNumber).toBe(request.prescription.rxNumber);
    expect(row.drugName).toBe(request.prescription.medicationName);
    expect(row.sendingNpi).toBe(request.sendingPharmacy.npi);
    expect(row.request).toEqual(request);
    expect(row.response).toEqual(answer.body);
  });

  it("keeps additional metadata properties as received", async () => {
    const request = freshRequest((r) => Object.assign(r.metadata, { senderSystem: "PharmSys 4.2", retryCount: 0 }));
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expect(answer.status).toBe(200);
    const row = await db().transfer.findUniqueOrThrow({ where: { id: answer.body.metadata.referenceID } });
    expect((row.request as { metadata: Record<string, unknown> }).metadata.senderSystem).toBe("PharmSys 4.2");
  });
});

describe("error types over HTTP", () => {
  it("MISSING_INFO names the missing field by its full path", async () => {
    const request = freshRequest((r) => {
      delete (r.prescription as Partial<typeof r.prescription>).daysSupply;
    });
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(400);
    expect(answer.body.requestID).toBe(request.metadata.requestID);
    expect(answer.body.error?.type).toBe("MISSING_INFO");
    expect(answer.body.error?.description).toContain("prescription.daysSupply");
  });

  it("SPEC_MISMATCH for a wrong pattern", async () => {
    const answer = await send(baseUrl, {
      body: freshRequest((r) => (r.patient.address.postalCode = "1234")),
      authorization: auth,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.type).toBe("SPEC_MISMATCH");
    expect(answer.body.error?.description).toContain("patient.address.postalCode");
  });

  it("INVALID_INFO for a receiving pharmacy that is not this pharmacy", async () => {
    const answer = await send(baseUrl, {
      body: freshRequest((r) => (r.receivingPharmacy.npi = "1234567893")),
      authorization: auth,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.type).toBe("INVALID_INFO");
    expect(answer.body.error?.description).toContain("receivingPharmacy.npi");
  });

  it("INVALID_INFO for an NPI with a wrong check digit", async () => {
    const answer = await send(baseUrl, {
      body: freshRequest((r) => (r.prescriber.npi = "1234567890")),
      authorization: auth,
    });
    expect(answer.body.error?.type).toBe("INVALID_INFO");
    expect(answer.body.error?.description).toContain("prescriber.npi");
  });

  it("RX_EXPIRED for an expired prescription", async () => {
    const request = freshRequest((r) => {
      r.prescription.writtenDate = "2024-01-02T10:00:00Z";
      r.prescription.firstFilledDate = null;
      r.prescription.lastFilledDate = null;
      r.prescription.expirationDate = "2025-01-02T10:00:00Z";
    });
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.type).toBe("RX_EXPIRED");
    expect(answer.body.error?.description).toContain("prescription.expirationDate");
  });

  it("stores nothing for a refused request", async () => {
    const request = freshRequest((r) => (r.patient.gender = "X" as "M"));
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expect(answer.body.error?.type).toBe("SPEC_MISMATCH");
    expect(await db().transfer.count({ where: { requestId: request.metadata.requestID } })).toBe(0);
  });
});

describe("malformed requests get a precise envelope, never a 500", () => {
  it.each([
    ["malformed JSON", '{"metadata": {', 400, "SPEC_MISMATCH", "not valid JSON"],
    ["an empty body", "", 400, "SPEC_MISMATCH", "empty"],
    ["a JSON array", "[1,2]", 400, "SPEC_MISMATCH", ""],
    ["a JSON string", '"transfer"', 400, "SPEC_MISMATCH", ""],
    ["JSON null", "null", 400, "SPEC_MISMATCH", ""],
  ])("%s", async (_name, raw, status, type, words) => {
    const answer = await send(baseUrl, { raw, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(status);
    expect(answer.body.error?.type).toBe(type);
    expect(answer.body.requestID).toBe("");
    expect(answer.body.error?.description).toContain(words);
  });

  it("415 for another content type, decided before the body is parsed (no requestID echoed)", async () => {
    const request = freshRequest();
    const answer = await send(baseUrl, {
      body: request,
      authorization: auth,
      headers: { "content-type": "text/plain" },
    });
    expectEnvelope(answer);
    expect(answer.status).toBe(415);
    expect(answer.body.requestID).toBe("");
    expect(answer.body.error?.description).toContain("application/json");
  });

  it("accepts application/json with a UTF-8 charset parameter", async () => {
    const answer = await send(baseUrl, {
      body: freshRequest(),
      authorization: auth,
      headers: { "content-type": "Application/JSON; charset=UTF-8" },
    });
    expect(answer.status).toBe(200);
  });

  it("413 for a body over 1 MB", async () => {
    const request = freshRequest() as unknown as Record<string, unknown>;
    const raw = JSON.stringify({ ...request, padding: "x".repeat(1024 * 1024) });
    const answer = await send(baseUrl, { raw, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(413);
    expect(answer.body.error?.type).toBe("OTHER");
  });

  it.each(["GET", "PUT", "PATCH", "DELETE"])("405 with Allow for %s", async (method) => {
    const answer = await send(baseUrl, { method, authorization: auth });
    expectEnvelope(answer);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toContain("POST");
  });

  it("404 envelope for an unknown /v1 path", async () => {
    const answer = await send(baseUrl, { path: "/v1/transfers", authorization: auth, body: {} });
    expectEnvelope(answer);
    expect(answer.status).toBe(404);
  });

  it("treats unknown keys outside metadata as a spec mismatch naming the key", async () => {
    const request = freshRequest() as unknown as { patient: Record<string, unknown> };
    request.patient.favouriteColour = "blue";
    const answer = await send(baseUrl, { body: request, authorization: auth });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.type).toBe("SPEC_MISMATCH");
    expect(answer.body.error?.description).toContain("patient.favouriteColour");
  });
});

describe("GET /v1/transfer/{referenceID}", () => {
  it("returns the current TransferResponse to its own sender only", async () => {
    const created = await send(baseUrl, { body: freshRequest(), authorization: auth });
    const ref = created.body.metadata.referenceID;
    const mine = await send(baseUrl, { method: "GET", path: `/v1/transfer/${ref}`, authorization: auth });
    expectEnvelope(mine);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(created.body);

    const other = await createTestPartner("Other");
    const theirs = await send(baseUrl, {
      method: "GET",
      path: `/v1/transfer/${ref}`,
      authorization: senderKey(other.apiKey),
    });
    expectEnvelope(theirs);
    expect(theirs.status).toBe(404);

    const unknown = await send(baseUrl, { method: "GET", path: "/v1/transfer/trf_doesnotexist", authorization: auth });
    expect(unknown.status).toBe(404);

    const anonymous = await send(baseUrl, { method: "GET", path: `/v1/transfer/${ref}`, authorization: null });
    expect(anonymous.status).toBe(401);
  });

  it("shows the decision's answer once the transfer is decided", async () => {
    const created = await send(baseUrl, { body: freshRequest(), authorization: auth });
    const ref = created.body.metadata.referenceID;
    const outcome = {
      requestID: created.body.requestID,
      metadata: {
        responseType: "ERROR",
        referenceID: ref,
        responseID: "rsp_test",
        responseTimestamp: new Date().toISOString(),
      },
      error: { type: "INVALID_INFO", description: "patient information mismatch" },
    };
    await db().transfer.update({ where: { id: ref }, data: { status: "REJECTED", activeRxKey: null, outcome } });
    const answer = await send(baseUrl, { method: "GET", path: `/v1/transfer/${ref}`, authorization: auth });
    expect(answer.body).toEqual(outcome);
  });
});

describe("OpenAPI", () => {
  it("serves an OpenAPI 3.1 document with the transfer operation", async () => {
    const res = await fetch(`${baseUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/transfer", "/v1/transfer/{referenceID}", "/oauth/token"]),
    );
  });
});
