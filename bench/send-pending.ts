// Pending transfers for the dashboard part, sent the way a sender sends them (POST /v1/transfer with its
// key), each a patient of its own so that the queue can be searched to exactly one row.
import { randomBytes } from "node:crypto";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferResponse } from "@/lib/interface";
import { letters } from "./letters";

export type Pending = { referenceID: string; lastName: string; firstName: string };

/** Pending transfers sent the way a sender sends them (POST /v1/transfer with its key), each a patient of its own. */
export async function sendPending(
  baseUrl: string,
  apiKey: string,
  pharmacyNpi: string,
  count: number,
): Promise<Pending[]> {
  const run = randomBytes(3)
    .toString("hex")
    .replace(/[^a-f]/g, "x");
  const sent: Pending[] = [];
  for (let i = 0; i < count; i++) {
    const request = buildTransferRequest({}, { receivingNpi: pharmacyNpi });
    request.metadata.requestID = `dash-${run}-${i}`;
    request.prescription.rxNumber = `DASH${randomBytes(5).toString("hex")}`;
    request.patient.name.lastName = `Dash${run}${letters(i)}`;
    // A patient of its own by both of the history's match rules (name + DOB, the sender's patient id).
    request.metadata.patientReferenceID = `dash-${run}-${i}`;
    const res = await fetch(`${baseUrl}/v1/transfer`, {
      method: "POST",
      headers: { authorization: `senderKey ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (res.status !== 200) throw new Error(`bench: /v1/transfer answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as TransferResponse;
    sent.push({
      referenceID: body.metadata.referenceID,
      lastName: request.patient.name.lastName,
      firstName: request.patient.name.firstName,
    });
  }
  return sent;
}
