// A transfer's state and history without patient data: status, who holds the claim, the decision, the
// sender's callback, and a timeline (received, viewed by whom, claimed, released, decided, each callback
// attempt). The review screen polls it, so it is not itself recorded as a view. Callback rows are only
// read here; lib/callbacks owns writing them.
//
// The timeline is for a person reading what happened, so:
//   - views (the review screen, the printable record, the patient history, the API) are one line per person
//     per day in the store's clock, with a count and the screens; the audit log keeps every one. They are
//     counted in SQL, in 15-minute buckets that the store's days are then made of, so a transfer opened all
//     day long costs a few rows here and never pushes its decision out of the list;
//   - entries are in the order things happened, and entries of one transaction in their logical order: a
//     decision's callback row is stamped with the transaction's start (created_at's default), a moment
//     before the decision's own time, so it is listed at the decision's time and after it.
import { RX_CALLBACK_ERROR } from "@/lib/callbacks/callback-answer";
import { callbackView, type CallbackTimeline } from "@/lib/callbacks/find-callback-timeline";
import { localParts } from "@/lib/alerts/opening-hours";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { getAllStoreAlertSettings } from "@/lib/stores/store-npis";
import { errorTypeText } from "@/lib/transfers/decision";
import { selectActivityEvents, selectViewBuckets, type ViewBucketRow } from "@/lib/transfers/queries/activity";
import { claimView, decisionView, type ClaimView, type DecisionView } from "@/lib/transfers/review";
import type { CallbackAttempt } from "@/generated/prisma/client";
import type { TransferStatus } from "@/generated/prisma/enums";

export type TimelineKind =
  | "received"
  | "viewed"
  | "claimed"
  | "released"
  | "approved"
  | "rejected"
  | "refused"
  | "callback_queued"
  | "callback_attempt"
  | "callback_delivered"
  | "event";

export type TimelineEvent = {
  at: string;
  kind: TimelineKind;
  /** What happened, in words (no patient data). */
  text: string;
  actor: string | null;
  /** Views: how many that day (folded into one entry) and the last one's time. */
  count?: number;
  lastAt?: string;
  /** For callback attempts: did the sender acknowledge (2xx, and not RX_CALLBACK_ERROR)? */
  ok?: boolean;
};

export type TransferActivity = {
  referenceID: string;
  status: TransferStatus;
  receivedAt: string;
  decidedAt: string | null;
  claim: ClaimView | null;
  decision: DecisionView | null;
  callback: CallbackTimeline | null;
  timeline: TimelineEvent[];
  serverTime: string;
};

/** The most recent non-view audit records listed (views are counted, not listed). */
const MAX_AUDIT_EVENTS = 500;
const SCREEN_WORDS: Record<string, string> = {
  review: "review screen",
  record: "transfer record",
  api: "API",
  history: "patient history",
};

/** Within one instant, the order in which one thing leads to the next. */
const RANK: Record<TimelineKind, number> = {
  received: 0,
  viewed: 1,
  claimed: 2,
  released: 3,
  refused: 4,
  event: 4,
  approved: 5,
  rejected: 5,
  callback_queued: 6,
  callback_attempt: 7,
  callback_delivered: 8,
};

/** One line per person per day (the store's): first view, last view, how many, on which screens. */
function foldViews(buckets: ViewBucketRow[], timeZone: string): TimelineEvent[] {
  const lines = new Map<string, { who: string; first: Date; last: Date; n: number; screens: Set<string> }>();
  for (const b of buckets) {
    const who = b.user_name || b.actor;
    const day = localParts(b.first_at, timeZone);
    const key = `${b.user_id ?? b.actor}|${day.year}-${day.month}-${day.day}`;
    const line = lines.get(key);
    if (!line) {
      lines.set(key, { who, first: b.first_at, last: b.last_at, n: b.n, screens: new Set([b.screen]) });
      continue;
    }
    if (b.first_at < line.first) line.first = b.first_at;
    if (b.last_at > line.last) line.last = b.last_at;
    line.n += b.n;
    line.screens.add(b.screen);
  }
  return [...lines.values()].map((line) => {
    const screens = Object.keys(SCREEN_WORDS).filter((s) => line.screens.has(s));
    const other = [...line.screens].filter((s) => !(s in SCREEN_WORDS));
    const on = [...screens.map((s) => SCREEN_WORDS[s]!), ...other].join(", ");
    return {
      at: line.first.toISOString(),
      kind: "viewed",
      text: `Viewed by ${line.who} (${on})`,
      actor: line.who,
      count: line.n,
      lastAt: line.last.toISOString(),
    };
  });
}

export async function getTransferActivity(referenceID: string): Promise<TransferActivity> {
  if (referenceID.length > 64) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  // Independent reads, side by side: the screen waits for the slowest, not for their sum.
  const [row, callback, events, viewBuckets, alertSettings] = await Promise.all([
    db().transfer.findUnique({
      where: { id: referenceID },
      select: {
        id: true,
        status: true,
        receivedAt: true,
        decidedAt: true,
        receivingNpi: true,
        claimExpiresAt: true,
        claimedBy: { select: { id: true, name: true } },
        partner: { select: { name: true } },
        decision: {
          select: { decision: true, pharmacistName: true, decidedAt: true, errorType: true, description: true },
        },
      },
    }),
    db().callback.findUnique({
      where: { transferId: referenceID },
      include: { attempts: { orderBy: { attemptNumber: "asc" } } },
    }),
    selectActivityEvents(referenceID, MAX_AUDIT_EVENTS).execute(),
    selectViewBuckets(referenceID).execute(),
    getAllStoreAlertSettings(),
  ]);
  if (!row) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  const timeZone = alertSettings.get(row.receivingNpi)?.timeZone ?? "UTC";
  const decidedAt = row.decision?.decidedAt.toISOString();

  const timeline: TimelineEvent[] = [
    { at: row.receivedAt.toISOString(), kind: "received", text: `Received from ${row.partner.name}`, actor: null },
    ...foldViews(viewBuckets, timeZone),
  ];
  for (const e of events.reverse()) {
    const who = e.user_name || e.actor;
    const at = e.at.toISOString();
    const details = (e.details ?? {}) as Record<string, unknown>;
    switch (e.action) {
      case "transfer.claimed":
        timeline.push({ at, kind: "claimed", text: `Claimed for review by ${who}`, actor: who });
        break;
      case "transfer.claim_released":
        timeline.push({ at, kind: "released", text: `Claim released by ${who}`, actor: who });
        break;
      case "transfer.approved":
        // At the decision's own time, which its callback shares (the audit record is written a moment later).
        timeline.push({
          at: decidedAt ?? at,
          kind: "approved",
          text: `Approved by ${who}: CONFIRMED queued for the sender`,
          actor: who,
        });
        break;
      case "transfer.rejected":
        timeline.push({
          at: decidedAt ?? at,
          kind: "rejected",
          text: `Rejected by ${who} (${errorTypeText(typeof details.errorType === "string" ? details.errorType : null)}): ERROR queued for the sender${row.decision?.description ? `, saying “${row.decision.description}”` : ""}`,
          actor: who,
        });
        break;
      case "transfer.decision_refused":
        timeline.push({
          at,
          kind: "refused",
          text: `${who} tried to ${details.attempted === "reject" ? "reject" : "approve"}; refused (${details.reason === "claimed_by_other" ? "claimed by someone else" : "already decided"})`,
          actor: who,
        });
        break;
      default:
        timeline.push({ at, kind: "event", text: `${e.action.replace(/[._]/g, " ")} by ${who}`, actor: who });
    }
  }

  if (callback) {
    const createdAt = callback.createdAt.toISOString();
    timeline.push({
      at: decidedAt && decidedAt > createdAt ? decidedAt : createdAt,
      kind: "callback_queued",
      text: "Callback to the sender queued",
      actor: null,
    });
    for (const a of callback.attempts) timeline.push(attemptEvent(a));
    if (callback.deliveredAt) {
      timeline.push({
        at: callback.deliveredAt.toISOString(),
        kind: "callback_delivered",
        text: "Callback acknowledged by the sender",
        actor: null,
        ok: true,
      });
    }
  }
  // ISO instants of one format sort as strings; within one instant, by what leads to what. Stable otherwise.
  timeline.sort((a, b) => a.at.localeCompare(b.at) || RANK[a.kind] - RANK[b.kind]);

  const now = new Date();
  return {
    referenceID: row.id,
    status: row.status,
    receivedAt: row.receivedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    claim: claimView(row, now),
    decision: row.decision ? decisionView(row.decision) : null,
    callback: callback ? callbackView(callback) : null,
    timeline,
    serverTime: now.toISOString(),
  };
}

/** One callback attempt on the timeline: its answer, and what the sender's callback API said in it. */
function attemptEvent(a: CallbackAttempt): TimelineEvent {
  const refused = a.senderResponseType === RX_CALLBACK_ERROR;
  const ok = !refused && a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 && a.error === null;
  const outcome = a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "in progress");
  const latency = a.latencyMs !== null ? `, ${a.latencyMs} ms` : "";
  const detail = refused
    ? ` – refused by the sender: ${[a.senderErrorType, a.senderErrorDescription].filter(Boolean).join(": ") || RX_CALLBACK_ERROR}`
    : !ok && a.statusCode !== null && a.error
      ? ` – ${a.error}`
      : a.senderResponseType
        ? ` – ${a.senderResponseType}`
        : a.responseExcerpt
          ? ` – answered: ${a.responseExcerpt}`
          : "";
  return {
    at: a.startedAt.toISOString(),
    kind: "callback_attempt",
    text: `Callback attempt ${a.attemptNumber}${a.manual ? " (manual redelivery)" : ""}: ${outcome}${latency}${detail}`,
    actor: null,
    ok,
  };
}
