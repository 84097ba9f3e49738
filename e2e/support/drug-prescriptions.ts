// What the drug-rules specs share: a prescription's drug set in one call, and dates some days back written
// as the interface writes them (seconds, Z).
import type { TransferRequest } from "../../lib/interface";

export const DAY_MS = 86_400_000;
export const isoDaysAgo = (days: number) =>
  new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");

export function drug(r: TransferRequest, name: string, strength: string, form = "Tablet"): void {
  r.prescription.medicationName = name;
  r.prescription.drugStrength = strength;
  r.prescription.drugForm = form;
}
