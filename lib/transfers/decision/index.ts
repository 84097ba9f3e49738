// Decision: claiming a transfer (claim-transfer.ts), approving or rejecting it (approve-transfer.ts,
// reject-transfer.ts over decide-transfer.ts, under the approval rules) and the answer the sender is owed
// (decision-responses.ts). Client components import ./client-safe for the forms' schemas, types from here.
export * from "./client-safe";
export * from "./approve-transfer";
export * from "./reject-transfer";
export * from "./decide-transfer";
export * from "./claim-transfer";
export * from "./decision-errors";
export * from "./decision-responses";
