// The ready-made request of the README's curl (examples/transfer.json) and /docs: the fixture's valid
// refill transfer of atorvastatin, dated as of one day. Its prescription is written 40 days before that
// day and expires a year after it was written, so the file stays valid for about eleven months; then
// `npx tsx scripts/example-transfer.ts > examples/transfer.json` writes it again as of today.
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";

/** The day examples/transfer.json was written for. */
export const EXAMPLE_AS_OF = "2026-11-23T15:00:00Z";

export function exampleTransferRequest(asOf: Date = new Date(EXAMPLE_AS_OF)): TransferRequest {
  return buildTransferRequest(
    {
      metadata: {
        requestID: `req_example_${asOf.toISOString().slice(0, 10).replaceAll("-", "")}`,
        patientReferenceID: "pat_000451",
      },
    },
    { now: asOf },
  );
}
