// Small wording helpers of the admin screens.
import type { PartnerCallbacks } from "@/lib/partners/partner-views";

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** The partner's callback endpoint in a few words, and the badge tone that goes with it. */
export function callbackHealthText(c: PartnerCallbacks): {
  label: string;
  tone: "green" | "amber" | "red" | "neutral";
  detail: string;
} {
  const week = c.last7d;
  const counts = [
    week.delivered ? `${week.delivered} delivered` : null,
    week.pending ? `${week.pending} sending` : null,
    week.retrying ? `${week.retrying} retrying` : null,
    week.failed ? `${week.failed} failed` : null,
    week.gone ? `${week.gone} stopped (410)` : null,
    week.refused ? `${week.refused} refused by the sender` : null,
  ].filter(Boolean);
  const detail = counts.length ? `Last 7 days: ${counts.join(", ")}.` : "No callbacks in the last 7 days.";
  if (c.state === "gone") return { label: "Endpoint gone (410)", tone: "red", detail };
  if (c.state === "failing")
    return { label: c.isFlagged ? "Failing" : "Failing (just started)", tone: c.isFlagged ? "red" : "amber", detail };
  if (week.refused) return { label: "Refused by the sender", tone: "red", detail };
  if (week.failed || week.retrying) return { label: "Some failures", tone: "amber", detail };
  if (week.delivered) return { label: "Healthy", tone: "green", detail };
  return { label: "No recent callbacks", tone: "neutral", detail };
}
