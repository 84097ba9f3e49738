// The review screen's checks (what the server verified, with its verdict) and the raw request as received.
// Server components.
import { countProblems, problemWords, type CheckStatus, type ReviewCheck } from "@/lib/transfers/review";
import { Section } from "@/components/dashboard/review/section-layout";

const CHECK_LOOK: Record<CheckStatus, { icon: string; label: string; className: string }> = {
  pass: { icon: "✓", label: "Passed", className: "text-emerald-700" },
  info: { icon: "i", label: "Note", className: "text-sky-700" },
  warn: { icon: "!", label: "Warning", className: "text-amber-700" },
  fail: { icon: "✗", label: "Failed", className: "text-red-700" },
};

export function ChecksSection({ checks }: { checks: ReviewCheck[] }) {
  // The same count and words as the queue row of this transfer.
  const problems = problemWords(countProblems(checks)).join(", ");
  return (
    <Section title={`Automated checks${problems ? ` · ${problems}` : ""}`} id="checks">
      <p className="mb-1 text-xs text-slate-600">
        What to look at before deciding. Transfers with missing or invalid information were already turned away when
        they arrived.
      </p>
      <ul className="divide-y divide-slate-100">
        {checks.map((check) => {
          const look = CHECK_LOOK[check.status];
          return (
            <li
              key={check.id}
              className="grid grid-cols-[5.5rem_1fr] gap-x-2 py-1 sm:grid-cols-[5.5rem_10rem_1fr] sm:gap-y-2"
            >
              <span className={`font-semibold ${look.className}`}>
                <span aria-hidden="true" className="inline-block w-4 text-center">
                  {look.icon}
                </span>{" "}
                {look.label}
              </span>
              <span className="font-medium">{check.title}</span>
              <span className="col-span-2 text-slate-700 sm:col-span-1">{check.detail}</span>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

export function RawRequestSection({ raw }: { raw: unknown }) {
  return (
    <Section title="Raw request">
      <details>
        <summary className="cursor-pointer text-slate-700">
          Show the request exactly as the sender sent it (for troubleshooting)
        </summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100">
          {JSON.stringify(raw, null, 2)}
        </pre>
      </details>
    </Section>
  );
}
