// Partner B sending a prescription (sending NPI + rxNumber) that partner A already sent learned
// A's referenceID from the DUPLICATE_REQUEST answer. The existing id is named only to the partner that owns
// it. Partners without NPIs may send from any NPI unless REQUIRE_PARTNER_NPIS=true.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner } from "@/lib/partners/create-partner";
import { DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();

describe("a duplicate prescription from another partner", () => {
  it("is refused without naming the first partner's referenceID or status", async () => {
    const [a, b] = await Promise.all([createTestPartner("Dup A"), createTestPartner("Dup B")]);
    const first = freshRequest();
    const created = await send(baseUrl, { body: first, authorization: senderKey(a.apiKey) });
    expect(created.status).toBe(200);
    const ownId = created.body.metadata.referenceID;

    const fromB = await send(baseUrl, {
      body: freshRequest((r) => (r.prescription.rxNumber = first.prescription.rxNumber)),
      authorization: senderKey(b.apiKey),
    });
    expectEnvelope(fromB);
    expect(fromB.status).toBe(400);
    expect(fromB.body.error?.type).toBe("DUPLICATE_REQUEST");
    expect(fromB.body.metadata.referenceID).not.toBe(ownId);
    expect(fromB.text).not.toContain(ownId);
    expect(fromB.body.error?.description).not.toMatch(/RECEIVED|CONFIRMED/);

    // The owner still learns which of its transfers it is.
    const fromA = await send(baseUrl, {
      body: freshRequest((r) => (r.prescription.rxNumber = first.prescription.rxNumber)),
      authorization: senderKey(a.apiKey),
    });
    expect(fromA.status).toBe(400);
    expect(fromA.body.error?.type).toBe("DUPLICATE_REQUEST");
    expect(fromA.body.metadata.referenceID).toBe(ownId);
  });
});

describe("REQUIRE_PARTNER_NPIS=true", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl, env: { REQUIRE_PARTNER_NPIS: "true" } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a partner registered without NPIs with 403 in the TransferResponse envelope", async () => {
    const open = await createTestPartner("No NPIs");
    const request = freshRequest();
    const refused = await send(server.baseUrl, { body: request, authorization: senderKey(open.apiKey) });
    expectEnvelope(refused);
    expect(refused.status).toBe(403);
    expect(refused.body.requestID).toBe(request.metadata.requestID);
    expect(refused.body.error?.type).toBe("OTHER");
    expect(refused.body.error?.description).toContain("NPI");
  });

  it("still accepts a partner whose allow-list holds the sending NPI, and refuses another NPI as before", async () => {
    const listed = await createPartner({
      name: `Listed ${Date.now()}`,
      callbackUrl: "https://sender.example/callbacks",
      npis: [DEMO_SENDING_NPI],
    });
    expect((await send(server.baseUrl, { body: freshRequest(), authorization: senderKey(listed.apiKey) })).status).toBe(
      200,
    );
    const other = await send(server.baseUrl, {
      body: freshRequest((r) => (r.sendingPharmacy.npi = "1093817462")),
      authorization: senderKey(listed.apiKey),
    });
    expect(other.status).toBe(400);
    expect(other.body.error?.type).toBe("INVALID_INFO");
  });
});

describe("the default (allow-lists not enforced)", () => {
  it("accepts a partner without NPIs, and says so on the admin's partner list", async () => {
    const open = await createTestPartner("Open");
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(open.apiKey) })).status).toBe(200);
    const { listPartners } = await import("@/lib/partners/list-partners");
    const row = (await listPartners()).find((p) => p.partnerId === open.partnerId);
    expect(row?.npiWarning).toMatch(/any pharmacy NPI/);
  });
});
