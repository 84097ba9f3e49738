// `__proto__` inside metadata (which allows additional properties) was silently dropped while every other
// extra key was stored: an assignment of that name sets an object's prototype instead of a key. The names
// JavaScript treats specially, __proto__, constructor and prototype, are now refused by name at any depth
// (SPEC_MISMATCH naming the key's path), and nothing is stored; other extra keys are stored as before.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, expectEnvelope, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
let partner: CreatedPartner;

beforeAll(async () => {
  partner = await createTestPartner("Reserved keys");
});

/** The request's text with `"name": value` added to metadata (or to metadata.extra) as raw JSON. */
function withRawKey(name: string, nested: boolean): { text: string; requestID: string } {
  const request = freshRequest();
  const member = `"${name}":{"polluted":true}`;
  const metadata = JSON.stringify(request.metadata).replace(/}$/, nested ? `,"extra":{${member}}}` : `,${member}}`);
  const text = JSON.stringify({ ...request, metadata: "METADATA" }).replace('"METADATA"', metadata);
  return { text, requestID: request.metadata.requestID };
}

const storedCount = (requestID: string) => db().transfer.count({ where: { requestId: requestID } });

describe("reserved key names in a transfer request", () => {
  it.each([
    ["__proto__", false],
    ["constructor", false],
    ["prototype", false],
    ["__proto__", true],
    ["\\u005f_proto__", false],
  ])("%s (nested: %s) is refused by name and nothing is stored", async (name, nested) => {
    const { text, requestID } = withRawKey(name, nested);
    const answer = await send(baseUrl, { raw: text, authorization: senderKey(partner.apiKey) });
    expectEnvelope(answer);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error?.type).toBe("SPEC_MISMATCH");
    const shown = name.replace("\\u005f", "_");
    expect(answer.body.error?.description).toContain(
      `metadata.${nested ? "extra." : ""}${shown} is a reserved key name (__proto__, constructor, prototype are not accepted)`,
    );
    expect(await storedCount(requestID)).toBe(0);
  });

  it("stores any other extra metadata key as sent", async () => {
    const { text, requestID } = withRawKey("proto", false);
    const answer = await send(baseUrl, { raw: text, authorization: senderKey(partner.apiKey) });
    expect(answer.status, answer.text).toBe(200);
    const row = await db().transfer.findFirstOrThrow({ where: { requestId: requestID } });
    expect(JSON.stringify(row.request)).toContain('"proto":{"polluted":true}');
  });
});
