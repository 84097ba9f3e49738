// examples/transfer.json, the README's `curl --data @examples/transfer.json`, is the example request of
// lib/demo/example-request.ts and passes validation today. When its prescription has expired this
// fails and says how to write it again.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXAMPLE_AS_OF, exampleTransferRequest } from "@/lib/demo/example-request";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { validateTransferRequest } from "@/lib/interface";

const file = JSON.parse(readFileSync(new URL("../../examples/transfer.json", import.meta.url), "utf8")) as unknown;

describe("examples/transfer.json", () => {
  it("is the example request as of EXAMPLE_AS_OF", () => {
    expect(file).toEqual(exampleTransferRequest(new Date(EXAMPLE_AS_OF)));
  });

  it("is a valid transfer today (else: npx tsx scripts/example-transfer.ts > examples/transfer.json, and set EXAMPLE_AS_OF)", () => {
    const result = validateTransferRequest(file, { storeNpis: new Set([DEMO_PHARMACY_NPI]), now: new Date() });
    expect(result.ok ? "valid" : result.description).toBe("valid");
  });
});
