// "Confirmed automatically, to verify": the transfers a store's policy CONFIRMED at intake that no pharmacist
// has received and verified yet, oldest first, with whether each is past its store's verification limit.
import { verifyDueAt } from "@/lib/immediate-confirm/claim-overdue-verifications";
import { DEFAULT_VERIFY_WITHIN_HOURS } from "@/lib/immediate-confirm/policy-rules";
import { countUnverified, selectToVerify } from "@/lib/immediate-confirm/queries/verification";
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
  const rows = await selectToVerify(limit, DEFAULT_VERIFY_WITHIN_HOURS).execute();
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
  const row = await countUnverified().executeTakeFirst();
  return row?.n ?? 0;
}
