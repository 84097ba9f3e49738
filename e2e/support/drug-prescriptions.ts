// What the drug-rules specs share: each test's pharmacist, sender and prescription sent in one call, a
// prescription's drug set in one call, and dates some days away written as the interface writes them
// (seconds, Z).
import type { APIRequestContext } from "@playwright/test";
import { createPharmacist, createSender, sendTransfer, transferRequest } from "../dashboard-helpers";
import type { TransferRequest } from "../../lib/interface";

export const DAY_MS = 86_400_000;
export const isoDaysAgo = (days: number) =>
  new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
export const isoDaysAhead = (days: number) => isoDaysAgo(-days);

export function drug(r: TransferRequest, name: string, strength: string, form = "Tablet"): void {
  r.prescription.medicationName = name;
  r.prescription.drugStrength = strength;
  r.prescription.drugForm = form;
}

/** A pharmacist named `pharmacistName`, a sender, and the sample transfer changed by `change`, sent by that sender. */
export async function sendPrescription(
  api: APIRequestContext,
  pharmacistName: string,
  change: (r: TransferRequest) => void,
) {
  const pharmacist = await createPharmacist(pharmacistName);
  const partner = await createSender();
  const transfer = transferRequest(change);
  const referenceID = await sendTransfer(api, partner, transfer);
  return { pharmacist, partner, transfer, referenceID };
}
