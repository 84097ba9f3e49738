// The admin overview's notice about the sender's contract: partners whose failure rate is above the warning
// line (the sender cuts a partner off above 50 %), and callbacks the sender refused. A server component that
// reads its own data, so the overview only places it.
import Link from "next/link";
import { percent, SENDER_CUTOFF_RATE } from "@/lib/partners/failure-rate";
import { listPartnersAtRisk } from "@/lib/partners/list-partners-at-risk";

export async function PartnersAtRisk() {
  const partners = await listPartnersAtRisk();
  if (partners.length === 0) return null;
  return (
    <div role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
      <p className="font-medium">The sender may stop sending, or does not know a decision:</p>
      <ul className="list-disc pl-5">
        {partners.map((p) => (
          <li key={p.partnerId}>
            <Link href={`/admin/partners/${p.partnerId}`} prefetch={false} className="font-medium underline">
              {p.name}
            </Link>
            {p.rate && (
              <>
                {" "}
                failed {percent(p.rate.failureRate)} of its requests in the last hour (the sender&apos;s line:{" "}
                {percent(SENDER_CUTOFF_RATE)})
              </>
            )}
            {p.rate && p.refusedCallbacks > 0 && ";"}
            {p.refusedCallbacks > 0 && (
              <>
                {" "}
                {p.refusedCallbacks} {p.refusedCallbacks === 1 ? "callback" : "callbacks"} refused by the sender
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
