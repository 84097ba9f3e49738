// Traffic and callback health of one partner: what it sent lately and how its callback endpoint answers.
import { callbackHealthText } from "@/components/admin/format";
import { Section } from "@/components/admin/partner/section";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { PartnerDetails } from "@/lib/partners/partner-views";

const ROW_CLASS = "flex justify-between gap-3 border-b border-slate-100 py-1 last:border-b-0";

function Row({ term, children, className }: { term: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={ROW_CLASS}>
      <dt className="text-slate-600">{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

export function TrafficSection({ p }: { p: PartnerDetails }) {
  const health = callbackHealthText(p.callbacks);
  return (
    <Section id="traffic-heading" title="Traffic and callbacks">
      <dl className="grid grid-cols-1 gap-x-6 md:grid-cols-2">
        <Row term="Transfers received, last 24 h" className="tabular-nums">
          {p.traffic.last24h}
        </Row>
        <Row term="Transfers received, last 7 days" className="tabular-nums">
          {p.traffic.last7d}
        </Row>
        <Row term="Last received">
          {p.traffic.lastReceivedAt ? <LocalTime iso={p.traffic.lastReceivedAt} /> : "never"}
        </Row>
        <Row term="Callback endpoint">
          <Badge tone={health.tone}>{health.label}</Badge>
          {p.callbacks.since && (
            <span className="ml-1 text-xs text-slate-600">
              since <LocalTime iso={p.callbacks.since} />
            </span>
          )}
        </Row>
        <Row term="Callbacks" className="text-right">
          {health.detail}
        </Row>
        <Row term="Last callback delivered">
          {p.callbacks.lastDeliveredAt ? <LocalTime iso={p.callbacks.lastDeliveredAt} /> : "none in 7 days"}
        </Row>
      </dl>
    </Section>
  );
}
