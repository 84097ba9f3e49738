// The partner's API keys: only their first and last characters, state, use and expiry, with Rotate and
// Revoke on the active ones.
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TABLE_CLASS, TableHead, TD_CLASS, TR_CLASS } from "@/components/ui/table";
import type { ApiKeyInfo } from "@/lib/partners/partner-views";

const KEY_STATE_BADGE: Record<ApiKeyInfo["state"], React.ReactNode> = {
  active: <Badge tone="green">Active</Badge>,
  expired: <Badge>Expired</Badge>,
  revoked: <Badge tone="red">Revoked</Badge>,
};

const COLUMNS = ["Key", "Status", "Created", "Last used", "Expires"];

function Never() {
  return <span className="text-slate-500">never</span>;
}

function KeyRow({ k, onRotate, onRevoke }: { k: ApiKeyInfo; onRotate: () => void; onRevoke: () => void }) {
  return (
    <tr className={TR_CLASS}>
      <td className={TD_CLASS}>
        <span className="font-mono">{k.display}</span>
        <div className="font-mono text-xs text-slate-500">{k.keyId}</div>
      </td>
      <td className={TD_CLASS}>{KEY_STATE_BADGE[k.state]}</td>
      <td className={TD_CLASS}>
        <LocalTime iso={k.createdAt} />
      </td>
      <td className={TD_CLASS}>{k.lastUsedAt ? <LocalTime iso={k.lastUsedAt} /> : <Never />}</td>
      <td className={TD_CLASS}>
        {k.revokedAt ? (
          <span className="text-slate-500">
            revoked <LocalTime iso={k.revokedAt} />
          </span>
        ) : k.expiresAt ? (
          <LocalTime iso={k.expiresAt} />
        ) : (
          <Never />
        )}
      </td>
      <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
        {k.state === "active" && (
          <span className="inline-flex gap-1">
            <Button onClick={onRotate}>
              Rotate<span className="sr-only"> key {k.display}</span>
            </Button>
            <Button variant="danger" onClick={onRevoke}>
              Revoke<span className="sr-only"> key {k.display}</span>
            </Button>
          </span>
        )}
      </td>
    </tr>
  );
}

export function ApiKeysTable({
  partnerName,
  keys,
  onRotate,
  onRevoke,
}: {
  partnerName: string;
  keys: ApiKeyInfo[];
  onRotate: (key: ApiKeyInfo) => void;
  onRevoke: (key: ApiKeyInfo) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className={TABLE_CLASS}>
        <caption className="sr-only">API keys of {partnerName}</caption>
        <TableHead columns={COLUMNS} actions />
        <tbody>
          {keys.map((k) => (
            <KeyRow key={k.keyId} k={k} onRotate={() => onRotate(k)} onRevoke={() => onRevoke(k)} />
          ))}
        </tbody>
      </table>
      {keys.length === 0 && <p className="px-2 py-3 text-slate-600">No API keys. Create one above.</p>}
    </div>
  );
}
