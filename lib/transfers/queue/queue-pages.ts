// The queue's paging: keyset cursors over (received_at, id), the pending and decided phases read in index
// order, and the capped count per status.
import * as z from "zod";
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { filterConditions } from "@/lib/transfers/queue/queue-filters";
import { isoInstant, type QueueQuery, type QueueStatus } from "@/lib/transfers/queue/queue-query";

/** Counts stop here and say so (list-queue.ts says why). */
export const COUNT_CAP = 1_000;

/** 0: pending (RECEIVED), 1: decided. "All statuses" reads phase 0 then phase 1. */
export type Phase = 0 | 1;
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

export type Row = {
  id: string;
  status: QueueStatus;
  patient_first_name: string;
  patient_last_name: string;
  patient_dob: Date;
  drug_name: string;
  drug_strength: string;
  partner_id: string;
  partner_name: string;
  sending_npi: string;
  received_at: Date;
  decided_at: Date | null;
  receiving_npi: string;
  claimed_by_id: string | null;
  claimed_by_name: string | null;
  claim_expires_at: Date | null;
  decided_by: string | null;
  callback_status: string | null;
  patient_name_key: string;
  patient_reference_id: string | null;
  /** Why the store's immediate-confirmation policy did not confirm it at intake (lib/immediate-confirm). */
  immediate_miss: string | null;
  request: unknown;
};

function statusCondition(status: QueueQuery["status"], phase: Phase): Prisma.Sql {
  if (status !== "all") return Prisma.sql`t.status = ${status}::"TransferStatus"`;
  return phase === 0
    ? Prisma.sql`t.status = 'RECEIVED'::"TransferStatus"`
    : Prisma.sql`t.status <> 'RECEIVED'::"TransferStatus"`;
}

export async function readPhase(
  query: QueueQuery,
  phase: Phase,
  after: Cursor | null,
  limit: number,
  now: Date,
): Promise<Row[]> {
  const newest = query.sort === "newest";
  const conds = [statusCondition(query.status, phase), ...filterConditions(query, now)];
  if (after) {
    const t = new Date(after.t);
    conds.push(
      newest
        ? Prisma.sql`(t.received_at, t.id) < (${t}, ${after.i})`
        : Prisma.sql`(t.received_at, t.id) > (${t}, ${after.i})`,
    );
  }
  const order = newest ? Prisma.sql`t.received_at DESC, t.id DESC` : Prisma.sql`t.received_at ASC, t.id ASC`;
  return db().$queryRaw<Row[]>`
    SELECT t.id, t.status::text AS status, t.patient_first_name, t.patient_last_name, t.patient_dob,
           t.drug_name, t.drug_strength, t.partner_id, p.name AS partner_name, t.sending_npi,
           t.received_at, t.decided_at, t.receiving_npi,
           CASE WHEN t.claim_expires_at > now() THEN t.claimed_by_id END AS claimed_by_id,
           CASE WHEN t.claim_expires_at > now() THEN u.name END AS claimed_by_name,
           CASE WHEN t.claim_expires_at > now() THEN t.claim_expires_at END AS claim_expires_at,
           d.pharmacist_name AS decided_by,
           t.callback_status::text AS callback_status, t.patient_name_key, t.patient_reference_id,
           t.immediate_miss, t.request
      FROM transfers t
      JOIN partners p ON p.id = t.partner_id
      LEFT JOIN users u ON u.id = t.claimed_by_id
      LEFT JOIN transfer_decisions d ON d.transfer_id = t.id
     WHERE ${Prisma.join(conds, " AND ")}
     ORDER BY ${order}
     LIMIT ${limit}`;
}

export async function countStatus(
  query: QueueQuery,
  status: QueueStatus,
  now: Date,
): Promise<{ count: number; capped: boolean }> {
  const conds = [Prisma.sql`t.status = ${status}::"TransferStatus"`, ...filterConditions(query, now)];
  const rows = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM transfers t WHERE ${Prisma.join(conds, " AND ")} LIMIT ${COUNT_CAP + 1}) capped`;
  const n = rows[0]?.n ?? 0;
  return { count: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}
