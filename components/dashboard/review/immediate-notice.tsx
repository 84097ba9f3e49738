// The review screen's word on the store's immediate-confirmation policy: why this pending transfer was not
// confirmed at intake, or, for one that was, the legal record so far and that it waits for a pharmacist.
import Link from "next/link";
import type { ImmediateRecord } from "@/lib/immediate-confirm/find-immediate-record";
import { immediateMissSentence } from "@/lib/immediate-confirm/miss-label";

export function ImmediateNotice({ miss, record }: { miss: string | null; record: ImmediateRecord | null }) {
  if (miss)
    return (
      <p role="note" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800">
        {immediateMissSentence(miss)}.
      </p>
    );
  if (!record) return null;
  return (
    <div role="note" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-950">
      <p>Confirmed automatically: {record.words}.</p>
      {!record.verified && (
        <p>
          Not released to the dispensing system until a pharmacist verifies it:{" "}
          <Link href="/transfers/to-verify" className="underline">
            Confirmed automatically, to verify
          </Link>
          .
        </p>
      )}
    </div>
  );
}
