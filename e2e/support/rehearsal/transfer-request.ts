// A transfer for the rehearsal's sender to post: to the pharmacy step 3 configures, from the partner step
// 12 creates, with a request id and Rx number of its own.
import { randomUUID } from "node:crypto";
import { buildTransferRequest } from "../../../lib/demo/sample-transfers";
import { guideValue, type GuideStep } from "../../deploy-guide";

export function rehearsalTransfer(step: (n: number) => GuideStep): ReturnType<typeof buildTransferRequest> {
  const request = buildTransferRequest(
    {},
    {
      receivingNpi: guideValue(step(3), /^PHARMACY_NPI=(\d{10})$/m, "PHARMACY_NPI"),
      sendingNpi: guideValue(step(12), /--npi (\d{10})/, "the partner's NPI"),
    },
  );
  request.metadata.requestID = `req-${randomUUID()}`;
  request.prescription.rxNumber = `RX${Math.floor(Math.random() * 1e10)}`;
  return request;
}
