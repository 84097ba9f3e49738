// The partner page's heading: name, state, id and dates, with suspend / resume beside it.
import { SuspensionControl } from "@/components/admin/partner/suspension-control";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { PartnerDetails } from "@/lib/partners/partner-views";

export function PartnerHeader({ p }: { p: PartnerDetails }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div>
        <h1 className="text-lg font-semibold">
          {p.name} {p.suspended ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Active</Badge>}
        </h1>
        <p className="text-xs text-slate-500">
          <span className="font-mono">{p.partnerId}</span> · added <LocalTime iso={p.createdAt} />
          {p.suspendedAt && (
            <>
              {" "}
              · suspended <LocalTime iso={p.suspendedAt} />
            </>
          )}
        </p>
      </div>
      <SuspensionControl p={p} />
    </div>
  );
}
