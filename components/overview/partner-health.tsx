// The admin's part of the overview: each partner's failure rate over the last hour against the sender's
// cut-off, and their callbacks of the last 30 days by state with the delivery delay, each linking to the partner.
import Link from "next/link";
import { Bar, BarChart, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { ChartFigure } from "@/components/overview/chart-figure";
import { AXIS, BAR_LIST_MARGIN, BLUE, minutes, RED } from "@/components/overview/chart-style";
import { percent, SENDER_CUTOFF_RATE } from "@/lib/partners/failure-rate";
import type { OverviewPartner } from "@/lib/overview/overview-views";

export function PartnerHealth({ partners, generatedAt }: { partners: OverviewPartner[]; generatedAt: string }) {
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <FailureRates partners={partners} />
      <PartnerCallbacks partners={partners} generatedAt={generatedAt} />
    </div>
  );
}

function FailureRates({ partners }: { partners: OverviewPartner[] }) {
  const rows = partners.map((p) => ({
    name: p.name,
    rate: p.failureRate === null ? 0 : Math.round(p.failureRate * 1000) / 10,
  }));
  const over = partners.filter((p) => p.failureRate !== null && p.failureRate > SENDER_CUTOFF_RATE);
  return (
    <ChartFigure
      id="failure-rate"
      title="Partners' failure rate, last hour"
      summary={`${over.length} of ${partners.length} partners above the sender's ${percent(SENDER_CUTOFF_RATE)} line${over.length ? `: ${over.map((p) => p.name).join(", ")}` : ""}.`}
      table={{
        columns: ["Partner", "Answers", "Failure rate"],
        rows: partners.map((p) => [p.name, p.answersLastHour, percent(p.failureRate)]),
      }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" accessibilityLayer={false} margin={BAR_LIST_MARGIN}>
          <XAxis type="number" domain={[0, 100]} unit="%" tick={AXIS} />
          <YAxis type="category" dataKey="name" tick={AXIS} width={120} />
          <ReferenceLine
            x={SENDER_CUTOFF_RATE * 100}
            stroke={RED}
            strokeDasharray="4 2"
            label={{ value: "cut-off", position: "top", fontSize: 11, fill: RED }}
          />
          <Bar dataKey="rate" name="Failure rate" fill={BLUE} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

const CALLBACK_COLUMNS = [
  "Partner",
  "Delivered",
  "Retrying",
  "Waiting",
  "Failed",
  "Refused",
  "Delay (median / p90)",
  `Failure rate, last hour (cut-off ${percent(SENDER_CUTOFF_RATE)})`,
];

function PartnerCallbacks({ partners, generatedAt }: { partners: OverviewPartner[]; generatedAt: string }) {
  return (
    <section aria-labelledby="callbacks-title" className="min-w-0 rounded border border-slate-200 bg-white p-3">
      <h2 id="callbacks-title" className="font-semibold">
        Callbacks per partner, last 30 days
      </h2>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <thead>
            <tr>
              {CALLBACK_COLUMNS.map((c) => (
                <th key={c} scope="col" className="border-b border-slate-300 px-1 py-0.5 font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {partners.map((p) => (
              <tr key={p.partnerId}>
                <th scope="row" className="border-b border-slate-100 px-1 py-0.5 font-normal">
                  <Link href={`/admin/partners/${p.partnerId}`} prefetch={false} className="text-blue-800 underline">
                    {p.name}
                  </Link>
                </th>
                {[p.delivered, p.retrying, p.pending, p.failed, p.refused].map((n, i) => (
                  <td key={i} className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                    {n}
                  </td>
                ))}
                <td className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                  {minutes(p.medianDelayMinutes)} / {minutes(p.p90DelayMinutes)}
                </td>
                <td className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                  {percent(p.failureRate)}
                  {p.failureRate !== null && p.failureRate > p.failureCutoff && (
                    <span className="ml-1 font-medium text-red-800">over the cut-off</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-1 text-xs text-slate-700">As of {new Date(generatedAt).toLocaleTimeString()}.</p>
    </section>
  );
}
