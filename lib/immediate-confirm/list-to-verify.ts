// "Confirmed automatically, to verify": the transfers a store's policy CONFIRMED at intake that no pharmacist
// has received and verified yet, oldest first, with whether each is past its store's verification limit.
import { db } from "@/lib/db/prisma";
import { verifyDueAt } from "@/lib/immediate-confirm/claim-overdue-verifications";
import { DEFAULT_VERIFY_WITHIN_HOURS } from "@/lib/immediate-confirm/policy-rules";
import { senderContact, type SenderContact } from "@/lib/immediate-confirm/raise-immediate-concern";

export type ToVerifyItem = {
  transferId: string;
  patient: string;
  drug: string;
  sender: SenderContact;
  confirmedAt: Date;
  policyVersion: number;
  ownerName: string;
  concernNote: string | null;
  overdue: boolean;
};

export async function listToVerify(limit = 200, now = new Date()): Promise<ToVerifyItem[]> {
  const rows = await db().$queryRaw<
    {
      transfer_id: string;
      patient: string;
      drug: string;
      request: unknown;
      confirmed_at: Date;
      policy_version: number;
      owner_name: string;
      concern_note: string | null;
      hours: number;
      opening_hours: unknown;
      time_zone: string | null;
    }[]
  >`
    SELECT c.transfer_id, t.patient_last_name || ', ' || t.patient_first_name AS patient,
           t.drug_name || ' ' || t.drug_strength AS drug, t.request, c.confirmed_at, c.policy_version, c.owner_name,
           c.concern_note,
           COALESCE(p.verify_within_hours, ${DEFAULT_VERIFY_WITHIN_HOURS}) AS hours, s.opening_hours, s.time_zone
      FROM immediate_confirmations c
      JOIN transfers t ON t.id = c.transfer_id
      LEFT JOIN immediate_confirm_policies p ON p.store_id = c.store_id
      LEFT JOIN stores s ON s.id = c.store_id
     WHERE c.verified_at IS NULL
     ORDER BY c.confirmed_at, c.transfer_id
     LIMIT ${limit}`;
  return rows.map((r) => ({
    transferId: r.transfer_id,
    patient: r.patient,
    drug: r.drug,
    sender: senderContact(r.request),
    confirmedAt: r.confirmed_at,
    policyVersion: r.policy_version,
    ownerName: r.owner_name,
    concernNote: r.concern_note,
    // The same limit, counted during opening hours, as the alert (claim-overdue-verifications.ts).
    overdue:
      verifyDueAt({
        confirmedAt: r.confirmed_at,
        hours: r.hours,
        openingHours: r.opening_hours,
        timeZone: r.time_zone ?? "UTC",
      }).getTime() <= now.getTime(),
  }));
}

/** The header's count. */
export async function countToVerify(): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM immediate_confirmations WHERE verified_at IS NULL`;
  return row?.n ?? 0;
}
