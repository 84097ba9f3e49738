// The overview's immediate-confirmation figures: confirmed at intake today, and those waiting for a
// pharmacist's countersign (lib/immediate-confirm).
import Link from "next/link";
import type { Overview } from "@/lib/overview/overview-views";

export function ImmediateConfirmation({ o }: { o: Overview }) {
  const i = o.immediateConfirmation;
  const figures = [
    { label: "Confirmed at once today", value: i.confirmedToday },
    { label: "Waiting for a countersign", value: i.waitingForCountersign },
    { label: "Of those, past the verification limit", value: i.overdue },
  ];
  return (
    <section aria-labelledby="immediate-title" className="rounded border border-slate-200 bg-white p-3">
      <h2 id="immediate-title" className="font-semibold">
        Immediate confirmation
      </h2>
      <p className="text-sm text-slate-700">
        {i.enabled
          ? "Transfers a store's policy confirmed at intake, and those no pharmacist has received and verified yet."
          : "No store confirms transfers at intake now; those confirmed earlier and not yet verified are counted here."}
      </p>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {figures.map((f) => (
          <div key={f.label} className="flex items-baseline gap-2">
            <dt className="text-slate-700">{f.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-1 text-sm">
        <Link href="/transfers/to-verify" prefetch={false} className="text-blue-800 underline">
          Transfers to verify
        </Link>
      </p>
    </section>
  );
}
