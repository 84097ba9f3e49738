"use client";
// One transfer in the queue: its age against the sender's window (or its decision), patient, drug, sender,
// flags and reviewer. A click anywhere on the row opens it; the patient's name is the row's link.
import Link from "next/link";
import { ageInYears, ageLevel, formatDuration, type AgeLevel } from "@/components/dashboard/format";
import { sortName } from "@/lib/interface/client-safe";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { TD_CLASS, TR_CLASS } from "@/components/ui/table";
import { immediateMissLabel, immediateMissSentence } from "@/lib/immediate-confirm/miss-label";
import type { QueueItem } from "@/lib/transfers/queue";
import { problemWords } from "@/lib/transfers/review/client-safe";

const AGE_STYLES: Record<AgeLevel, string> = {
  fresh: "border-slate-200 bg-white text-slate-700",
  waiting: "border-sky-200 bg-sky-50 text-sky-900",
  late: "border-amber-300 bg-amber-50 text-amber-900",
  urgent: "border-orange-400 bg-orange-100 text-orange-950 font-semibold",
  overdue: "border-red-700 bg-red-700 text-white font-semibold",
};

function AgeOrStatus({ item, now, windowMs }: { item: QueueItem; now: number; windowMs: number }) {
  if (item.status !== "RECEIVED")
    return (
      <Badge tone={item.status === "CONFIRMED" ? "green" : "red"}>
        {item.status === "CONFIRMED" ? "Approved" : "Rejected"}
      </Badge>
    );
  const age = Math.max(0, now - new Date(item.receivedAt).getTime());
  const level = ageLevel(age, windowMs);
  const left = windowMs - age;
  return (
    <span
      className={`inline-block rounded border px-1.5 py-px tabular-nums ${AGE_STYLES[level]}`}
      title={`${formatDuration(age)} since it was received; the sender gives up after ${formatDuration(windowMs)}`}
    >
      {formatDuration(age)}
      <span className="sr-only">
        {left > 0
          ? ` waiting, ${formatDuration(left)} left of the sender's window`
          : " waiting, past the sender's 4-hour window"}
      </span>
      {level === "overdue" && <span aria-hidden="true"> · overdue</span>}
    </span>
  );
}

function Flags({ item }: { item: QueueItem }) {
  const { flags } = item;
  return (
    <div className="flex flex-wrap gap-1">
      {flags.allergies.length > 0 && (
        <Badge tone="solidRed" title={flags.allergies.join(", ")}>
          Allergies ({flags.allergies.length})
        </Badge>
      )}
      {flags.allergiesDescriptor === "NOT_AVAILABLE" && <Badge tone="amber">Allergies unknown</Badge>}
      {flags.allergyAlert && (
        <Badge
          tone={flags.allergyAlert.severity === "danger" ? "solidRed" : "amber"}
          title={flags.allergyAlert.message}
        >
          {flags.allergyAlert.severity === "danger" ? "Allergy conflict" : "Allergy caution"}
        </Badge>
      )}
      {flags.schedule && (
        <Badge
          tone="violet"
          title={
            flags.schedule.substance
              ? `${flags.schedule.substance}: Schedule ${flags.schedule.label.slice(2)} controlled substance`
              : undefined
          }
        >
          {flags.schedule.label}
          {flags.schedule.substance && <span className="font-normal"> · {flags.schedule.substance}</span>}
        </Badge>
      )}
      {flags.scheduleUnknown && (
        <Badge tone="amber" title="Not found in the controlled-substance table: determine the schedule when reviewing">
          Schedule unknown
        </Badge>
      )}
      {flags.approvalBlocked && <Badge tone="solidRed">{flags.approvalBlocked}</Badge>}
      {problemWords(flags).map((words) => (
        <Badge key={words} tone={words.endsWith("failed") ? "red" : "amber"}>
          {words}
        </Badge>
      ))}
      {item.immediateMiss && (
        // Short on the row; the whole reason is its accessible name and tooltip.
        <span
          role="note"
          aria-label={immediateMissSentence(item.immediateMiss)}
          title={immediateMissSentence(item.immediateMiss)}
        >
          <Badge tone="neutral">{immediateMissLabel(item.immediateMiss)}</Badge>
        </span>
      )}
      {item.callbackStatus === "FAILED" || item.callbackStatus === "GONE" || item.callbackStatus === "REFUSED" ? (
        <Badge tone="red">Callback {item.callbackStatus.toLowerCase()}</Badge>
      ) : null}
    </div>
  );
}

function Reviewer({ item, userId }: { item: QueueItem; userId: string }) {
  if (item.claim)
    return (
      <span title={`Claimed until ${item.claim.claimExpiresAt}`}>
        {item.claim.heldById === userId ? "You" : item.claim.heldBy}
      </span>
    );
  if (item.status === "RECEIVED") return <span className="text-slate-400">—</span>;
  if (!item.decidedAt) return null;
  return (
    <span>
      {item.decidedBy ?? "—"}
      <span className="block text-xs text-slate-600">
        {item.status === "REJECTED" ? "rejected" : "approved"} <LocalTime iso={item.decidedAt} />
      </span>
    </span>
  );
}

export function QueueRow({
  item,
  selected,
  isNew,
  now,
  windowMs,
  userId,
  onSelect,
  onOpen,
}: {
  item: QueueItem;
  selected: boolean;
  isNew: boolean;
  now: number;
  windowMs: number;
  userId: string;
  onSelect: () => void;
  onOpen: () => void;
}) {
  return (
    <tr
      onClick={(e) => {
        onSelect();
        if (!(e.target instanceof HTMLAnchorElement)) onOpen();
      }}
      className={`${TR_CLASS} cursor-pointer align-top hover:bg-slate-50 ${item.patientGroup ? "border-l-4 border-l-violet-500" : ""} ${selected ? "bg-blue-50 outline outline-2 -outline-offset-2 outline-blue-500" : ""}`}
    >
      <td className={TD_CLASS}>
        <AgeOrStatus item={item} now={now} windowMs={windowMs} />
        {isNew && (
          <span className="ml-1">
            <Badge tone="blue">New</Badge>
          </span>
        )}
      </td>
      <td className={TD_CLASS}>
        <Link
          href={`/transfers/${item.referenceID}`}
          prefetch={false}
          data-row-link=""
          onFocus={onSelect}
          aria-describedby={item.patientGroup ? `group-${item.referenceID}` : undefined}
          className="font-medium text-slate-900 underline-offset-2 hover:underline"
        >
          {sortName(item.patient)}
        </Link>
        {/* Consecutive pending transfers of one patient (lib/transfers/queue/queue-patient-groups.ts); read out with the link. */}
        {item.patientGroup && (
          <div id={`group-${item.referenceID}`} className="mt-0.5">
            <Badge tone="violet">
              Same patient: {item.patientGroup.position} of {item.patientGroup.size}
            </Badge>
          </div>
        )}
        <div className="font-mono text-[11px] text-slate-600">{item.referenceID}</div>
      </td>
      <td className={`${TD_CLASS} whitespace-nowrap tabular-nums`}>
        {item.patient.dateOfBirth}{" "}
        <span className="text-slate-500">({ageInYears(item.patient.dateOfBirth, new Date(now))} y)</span>
      </td>
      <td className={TD_CLASS}>
        {item.drug.name} <span className="text-slate-600">{item.drug.strength}</span>
      </td>
      <td className={TD_CLASS}>
        {item.sender.name}
        <div className="text-[11px] text-slate-500">NPI {item.sender.npi}</div>
      </td>
      <td className={`${TD_CLASS} whitespace-nowrap tabular-nums`}>
        <LocalTime iso={item.receivedAt} />
        {item.arrivedAfterHours && <div className="text-[11px] text-slate-600">arrived after hours</div>}
      </td>
      <td className={TD_CLASS}>
        <Flags item={item} />
      </td>
      <td className={`${TD_CLASS} break-words`}>
        <Reviewer item={item} userId={userId} />
      </td>
    </tr>
  );
}
