// The queue's paging: keyset cursors over (received_at, id), the pending and decided phases read in index
// order, and the capped count per status.
import * as z from "zod";
import { DomainError } from "@/lib/errors";
import {
  countQueueStatus,
  runQueueStatement,
  selectQueuePage,
  type Phase,
  type QueueRow,
} from "@/lib/transfers/queries/queue";
import { isoInstant, type QueueQuery, type QueueStatus } from "./queue-query";

/** Counts stop here and say so (list-queue.ts says why). */
export const COUNT_CAP = 1_000;

export type { Phase };
export type Cursor = { p: Phase; t: string; i: string };

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

const CursorSchema = z.object({
  p: z.union([z.literal(0), z.literal(1)]),
  t: isoInstant,
  i: z.string().min(1).max(64),
});

export function decodeCursor(value: string): Cursor {
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
  } catch {
    throw new DomainError("invalid_input", "cursor: not a cursor this queue gave out; start again from the first page");
  }
}

/** A queue row as read (the statement's own type: queries/queue.ts). */
export type Row = QueueRow;

export async function readPhase(
  query: QueueQuery,
  phase: Phase,
  after: Cursor | null,
  limit: number,
  now: Date,
): Promise<Row[]> {
  const keyset = after ? { receivedAt: new Date(after.t), id: after.i } : null;
  return runQueueStatement(selectQueuePage({ query, phase, after: keyset, limit, now }));
}

export async function countStatus(
  query: QueueQuery,
  status: QueueStatus,
  now: Date,
): Promise<{ count: number; capped: boolean }> {
  const rows = await runQueueStatement(countQueueStatus(query, status, now, COUNT_CAP));
  const n = rows[0]?.n ?? 0;
  return { count: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}
