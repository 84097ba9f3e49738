// The README's curl (docs/senders/example-request.md), as written: examples/transfer.json posted with a sender's API key is RECEIVED, and
// posting it again replays the first answer (the same requestID and content).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
const body = readFileSync(new URL("../../examples/transfer.json", import.meta.url));
let partner: CreatedPartner;

beforeAll(async () => {
  partner = await createTestPartner("Example file");
});

describe("curl --data @examples/transfer.json", () => {
  it("is RECEIVED, and a second send replays the first answer", async () => {
    const post = () =>
      fetch(`${baseUrl}/v1/transfer`, {
        method: "POST",
        headers: { authorization: senderKey(partner.apiKey), "content-type": "application/json" },
        body,
      });
    const first = await post();
    const answer = (await first.json()) as { metadata: { responseType: string; referenceID: string } };
    expect(first.status, JSON.stringify(answer)).toBe(200);
    expect(answer.metadata.responseType).toBe("RECEIVED");
    const again = await post();
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as typeof answer).metadata.referenceID).toBe(answer.metadata.referenceID);
  });
});
