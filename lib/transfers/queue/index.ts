// The queue: its URL query (queue-query.ts), filters and keyset pages, and the rows a pharmacist scans
// (list-queue.ts). Client components take its types only (`import type`): the reads are server-only.
export * from "./list-queue";
export * from "./queue-query";
export * from "./queue-filters";
export * from "./queue-items";
export * from "./queue-patient-groups";
// The queue's statements, for the tests that EXPLAIN them or run them on their own.
export { COUNT_CAP } from "./queue-pages";
export {
  countQueueStatus,
  filterConditions,
  runQueueStatement,
  searchCondition,
  selectQueuePage,
  type Phase,
} from "@/lib/transfers/queries/queue";
