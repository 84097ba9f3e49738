// The record: what stays once a transfer is decided. The legal transfer record (transfer-record.ts), its CSV
// export, the transfer log, a transfer's live activity, and the answer a sender can fetch again. Client
// components take its types only (`import type`).
export * from "./transfer-record";
export * from "./export-transfers";
export * from "./list-decided-transfers";
export * from "./get-transfer-activity";
export * from "./find-transfer-response";
export * from "./lawful-refill-count";
// The bench times the export's batch statement on its own.
export { selectExportBatch } from "@/lib/transfers/queries/decided-log";
