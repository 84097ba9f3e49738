// The transfer log for inspections (pharmacists and admins): pick a period, a schedule and an outcome, and
// download the decided transfers as CSV. A static segment, so Next matches it before /transfers/[referenceID].
import type { Metadata } from "next";
import { TransferLogForm } from "@/components/dashboard/transfer-log-form";
import { requirePageUser } from "@/lib/auth/require-user";

export const metadata: Metadata = { title: "Transfer log" };

/** DEA's retention period: what an inspector asks for by default. */
const DEFAULT_YEARS = 2;

export default async function TransferLogPage() {
  await requirePageUser("/transfers/log");
  const today = new Date();
  const start = new Date(today);
  start.setUTCFullYear(start.getUTCFullYear() - DEFAULT_YEARS);
  return (
    <TransferLogForm
      initial={{
        firstDay: start.toISOString().slice(0, 10),
        lastDay: today.toISOString().slice(0, 10),
        schedule: "all",
        outcome: "approved",
      }}
    />
  );
}
