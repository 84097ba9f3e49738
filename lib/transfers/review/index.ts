// Review: what a pharmacist reads before deciding. The transfer with its drug review and checks
// (get-transfer-review.ts) and the patient's other transfers (get-patient-history.ts); the checks themselves
// are client-safe (./client-safe, which client components import instead of this file).
export * from "./client-safe";
export * from "./get-transfer-review";
export * from "./get-patient-history";
export * from "./review-check-options";
// The bench times the patient-history statement on its own.
export { historyRows } from "@/lib/transfers/queries/patient-history";
