// Intake: a validated request becomes a stored transfer (receive-transfer.ts), classified on write for the
// queue's filters (classify-transfer.ts); a retry is told from a new request by its content hash.
export * from "./receive-transfer";
export * from "./classify-transfer";
export * from "./content-hash";
