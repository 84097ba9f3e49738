// "Confirmed automatically, to verify": transfers a store's policy CONFIRMED at intake, which a pharmacist must
// still receive and verify before they are released to dispensing (lib/immediate-confirm).
import type { Metadata } from "next";
import { ToVerifyList } from "@/components/dashboard/immediate/to-verify-list";
import { requirePageUser } from "@/lib/auth/require-user";
import { listToVerify } from "@/lib/immediate-confirm/list-to-verify";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirmed automatically, to verify" };

export default async function ToVerifyPage() {
  await requirePageUser("/transfers/to-verify");
  const items = await listToVerify();
  const rows = items.map((i) => ({
    transferId: i.transferId,
    patient: i.patient,
    drug: i.drug,
    senderText: [i.sender.pharmacy, i.sender.pharmacist, i.sender.phone, i.sender.email].filter(Boolean).join(", "),
    confirmedAt: i.confirmedAt.toISOString(),
    policyVersion: i.policyVersion,
    ownerName: i.ownerName,
    concernNote: i.concernNote,
    overdue: i.overdue,
  }));
  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Confirmed automatically, to verify ({rows.length})</h1>
      <p className="text-sm text-slate-700">
        The sender already has CONFIRMED. Receive and verify each one (v), or raise a concern (c). None is released to
        the dispensing system until verified.
      </p>
      <ToVerifyList rows={rows} />
    </div>
  );
}
