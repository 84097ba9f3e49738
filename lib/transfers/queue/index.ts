// The queue: its URL query (queue-query.ts), filters and keyset pages, and the rows a pharmacist scans
// (list-queue.ts). Client components take its types only (`import type`): the reads are server-only.
export * from "./list-queue";
export * from "./queue-query";
export * from "./queue-filters";
export * from "./queue-items";
export * from "./queue-patient-groups";
