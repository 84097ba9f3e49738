// A transfer's callback and every attempt at it, oldest first, as plain values (time, status code or error,
// latency, manual or scheduled): GET /api/transfers/{referenceID}/callbacks, and the review's activity.
import type { CallbackStatusValue } from "@/lib/callbacks/callback-health";
import { db } from "@/lib/db/prisma";
import type { Callback, CallbackAttempt } from "@/generated/prisma/client";

export type CallbackAttemptView = {
  attemptNumber: number;
  startedAt: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  manual: boolean;
  /** What the sender's callback API said: metadata.responseType, and error.type/description of an RX_CALLBACK_ERROR. */
  senderResponseType: string | null;
  senderErrorType: string | null;
  senderErrorDescription: string | null;
  /** The start of an answer body that is not the sender's shape. */
  responseExcerpt: string | null;
  /** No result yet: in flight (an attempt whose worker stopped says so once its lease has run out). */
  isInFlight: boolean;
};

export type CallbackTimeline = {
  callbackId: string;
  status: CallbackStatusValue;
  attemptCount: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  attempts: CallbackAttemptView[];
};

type CallbackRow = Callback & { attempts: CallbackAttempt[] };

/** A callback row and its attempts (oldest first) as the dashboard shows them: the one mapping of both screens. */
export function callbackView(callback: CallbackRow): CallbackTimeline {
  return {
    callbackId: callback.id,
    status: callback.status,
    attemptCount: callback.attemptCount,
    nextAttemptAt: callback.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: callback.deliveredAt?.toISOString() ?? null,
    lastStatusCode: callback.lastStatusCode,
    lastError: callback.lastError,
    createdAt: callback.createdAt.toISOString(),
    attempts: callback.attempts.map((a) => ({
      attemptNumber: a.attemptNumber,
      startedAt: a.startedAt.toISOString(),
      statusCode: a.statusCode,
      error: a.error,
      latencyMs: a.latencyMs,
      manual: a.manual,
      senderResponseType: a.senderResponseType,
      senderErrorType: a.senderErrorType,
      senderErrorDescription: a.senderErrorDescription,
      responseExcerpt: a.responseExcerpt,
      isInFlight: a.statusCode === null && a.error === null,
    })),
  };
}

export async function findCallbackTimeline(transferId: string): Promise<CallbackTimeline | null> {
  if (transferId.length > 64) return null;
  const callback = await db().callback.findUnique({
    where: { transferId },
    include: { attempts: { orderBy: { attemptNumber: "asc" } } },
  });
  if (!callback) return null;
  return callbackView(callback);
}
