// A transfer's state and history without patient data: status, who holds the claim, the decision, the
// sender's callback, and a timeline (received, viewed by whom, claimed, released, decided, each callback
// attempt). The review screen polls it, so it is not itself recorded as a view. Callback rows are only
// read here; lib/callbacks owns writing them.
import { RX_CALLBACK_ERROR } from "@/lib/callbacks/callback-answer";
import { callbackView, type CallbackTimeline } from "@/lib/callbacks/find-callback-timeline";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { errorTypeText } from "@/lib/transfers/decision-inputs";
import type { CallbackAttempt } from "@/generated/prisma/client";
import type { Decision, TransferStatus } from "@/generated/prisma/enums";

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
  /** Repeated views by the same person in a row are folded into one entry. */
  count?: number;
  /** For callback attempts: did the sender acknowledge (2xx, and not RX_CALLBACK_ERROR)? */
  ok?: boolean;
};

export type TransferActivity = {
  referenceID: string;
  status: TransferStatus;
  receivedAt: string;
  decidedAt: string | null;
  claim: { heldBy: string; heldById: string; claimExpiresAt: string } | null;
  /** description: what a rejection told the sender (null for an approval). */
  decision: {
    decision: Decision;
    pharmacistName: string;
    decidedAt: string;
    errorType: string | null;
    description: string | null;
  } | null;
  callback: CallbackTimeline | null;
  timeline: TimelineEvent[];
  serverTime: string;
};

const MAX_AUDIT_EVENTS = 500;

export async function getTransferActivity(referenceID: string): Promise<TransferActivity> {
  if (referenceID.length > 64) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  const row = await db().transfer.findUnique({
    where: { id: referenceID },
    select: {
      id: true,
      status: true,
      receivedAt: true,
      decidedAt: true,
      claimExpiresAt: true,
      claimedBy: { select: { id: true, name: true } },
      partner: { select: { name: true } },
      decision: {
        select: { decision: true, pharmacistName: true, decidedAt: true, errorType: true, description: true },
      },
      callback: { include: { attempts: { orderBy: { attemptNumber: "asc" } } } },
    },
  });
  if (!row) throw new DomainError("not_found", `No transfer ${referenceID}.`);

  const events = await db().auditEvent.findMany({
    where: { transferId: referenceID },
    orderBy: { id: "desc" },
    take: MAX_AUDIT_EVENTS,
    select: { at: true, userId: true, actor: true, action: true, details: true },
  });
  events.reverse();
  const userIds = [...new Set(events.map((e) => e.userId).filter((id): id is string => id !== null))];
  const users = await db().user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));

  const timeline: TimelineEvent[] = [
    { at: row.receivedAt.toISOString(), kind: "received", text: `Received from ${row.partner.name}`, actor: null },
  ];
  for (const e of events) {
    const who = (e.userId && nameOf.get(e.userId)) || e.actor;
    const at = e.at.toISOString();
    const details = (e.details ?? {}) as Record<string, unknown>;
    switch (e.action) {
      case "transfer.viewed": {
        const previous = timeline[timeline.length - 1];
        if (previous?.kind === "viewed" && previous.actor === who) {
          previous.count = (previous.count ?? 1) + 1;
        } else {
          timeline.push({
            at,
            kind: "viewed",
            text: details.screen === "record" ? `Transfer record viewed by ${who}` : `Viewed by ${who}`,
            actor: who,
          });
        }
        break;
      }
      case "transfer.claimed":
        timeline.push({ at, kind: "claimed", text: `Claimed for review by ${who}`, actor: who });
        break;
      case "transfer.claim_released":
        timeline.push({ at, kind: "released", text: `Claim released by ${who}`, actor: who });
        break;
      case "transfer.approved":
        timeline.push({
          at,
          kind: "approved",
          text: `Approved by ${who}: CONFIRMED queued for the sender`,
          actor: who,
        });
        break;
      case "transfer.rejected":
        timeline.push({
          at,
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

  const callback = row.callback;
  if (callback) {
    timeline.push({
      at: callback.createdAt.toISOString(),
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
  timeline.sort((a, b) => a.at.localeCompare(b.at));

  const now = new Date();
  const claimLive = row.status === "RECEIVED" && row.claimedBy && row.claimExpiresAt && row.claimExpiresAt > now;
  return {
    referenceID: row.id,
    status: row.status,
    receivedAt: row.receivedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    claim:
      claimLive && row.claimedBy && row.claimExpiresAt
        ? { heldBy: row.claimedBy.name, heldById: row.claimedBy.id, claimExpiresAt: row.claimExpiresAt.toISOString() }
        : null,
    decision: row.decision
      ? {
          decision: row.decision.decision,
          pharmacistName: row.decision.pharmacistName,
          decidedAt: row.decision.decidedAt.toISOString(),
          errorType: row.decision.errorType,
          description: row.decision.description,
        }
      : null,
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
