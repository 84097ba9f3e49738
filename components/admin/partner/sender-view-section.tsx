// What the sender sees of this partner: its failure rate over the last hour against the sender's 50 % cut-off
// (a warning from 20 %), and the callbacks the sender's callback API refused (RX_CALLBACK_ERROR).
import Link from "next/link";
import { Section } from "@/components/admin/partner/section";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { percent, SENDER_CUTOFF_RATE, WARNING_RATE } from "@/lib/partners/failure-rate";
import type { PartnerDetails } from "@/lib/partners/partner-views";

const LEVEL = {
  ok: { tone: "green", label: "Below the warning line" },
  warning: { tone: "amber", label: "Warning" },
  critical: { tone: "red", label: "Critical: near the sender's cut-off" },
} as const;

export function SenderViewSection({ p }: { p: PartnerDetails }) {
  const r = p.answerRate;
  const level = LEVEL[r.level];
  const barWidth = Math.min(100, Math.round((r.failureRate ?? 0) * 100));
  return (
    <Section
      id="sender-view-heading"
      title="As the sender sees us"
      description={`The sender disables every request to a pharmacy when more than ${percent(SENDER_CUTOFF_RATE)} of its answers fail within an hour. Failures counted: 5xx, 408, 429 and answers slower than its timeout. Other 4xx ERROR answers are shown apart: the sender fixes and resends those by hand.`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Failure rate, last hour:</span>
        <span className="tabular-nums" data-testid="failure-rate">
          {percent(r.failureRate)}
        </span>
        <span className="text-slate-600">
          ({r.failures} of {r.answers} {r.answers === 1 ? "answer" : "answers"}; the sender&apos;s line is{" "}
          {percent(SENDER_CUTOFF_RATE)})
        </span>
        <Badge tone={level.tone}>{level.label}</Badge>
      </div>
      <div
        role="meter"
        aria-label="Failure rate against the sender's 50 % line"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={barWidth}
        className="relative h-2 w-full max-w-md rounded bg-slate-200"
      >
        <div
          className={`h-2 rounded ${r.level === "ok" ? "bg-emerald-600" : r.level === "warning" ? "bg-amber-500" : "bg-red-600"}`}
          style={{ width: `${barWidth}%` }}
        />
        <div
          aria-hidden="true"
          className="absolute top-0 h-2 w-px bg-amber-700"
          style={{ left: `${WARNING_RATE * 100}%` }}
        />
        <div
          aria-hidden="true"
          className="absolute top-0 h-2 w-0.5 bg-red-800"
          style={{ left: `${SENDER_CUTOFF_RATE * 100}%` }}
        />
      </div>
      {r.level !== "ok" && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-900">
          {percent(r.failureRate)} of this sender&apos;s requests failed in the last hour (warning from{" "}
          {percent(WARNING_RATE)}). Above {percent(SENDER_CUTOFF_RATE)} the sender stops sending to this pharmacy,
          retries included. Check /readyz and the 5xx and 429 answers now.
        </p>
      )}
      <p className="text-slate-600">
        4xx ERROR answers, last hour: <span className="tabular-nums">{r.clientErrors}</span> (
        {percent(r.clientErrorRate)}; not in the rate above)
      </p>
      <h3 className="pt-1 font-medium">Callbacks refused by the sender</h3>
      {p.refusedCallbacks.length === 0 ? (
        <p className="text-slate-600">None: every callback the sender answered was processed.</p>
      ) : (
        <ul aria-label="Callbacks refused by the sender" className="list-disc space-y-0.5 pl-5">
          {p.refusedCallbacks.map((c) => (
            <li key={c.referenceID}>
              <Link href={`/transfers/${c.referenceID}`} prefetch={false} className="font-mono underline">
                {c.referenceID}
              </Link>{" "}
              refused at <LocalTime iso={c.at} />: {c.reason ?? "RX_CALLBACK_ERROR"}. Not delivered; redeliver from the
              transfer once the cause is fixed.
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
