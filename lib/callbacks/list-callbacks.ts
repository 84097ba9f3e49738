// Callbacks by status and partner, newest first, with what the last attempt's answer said (the sender's
// RX_CALLBACK_ERROR type and description for a REFUSED one): `npm run cli -- callbacks list`.
import { CallbackStatus } from "@/generated/prisma/enums";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";

export const CALLBACK_STATUSES = Object.values(CallbackStatus);

export type CallbackListItem = {
  callbackId: string;
  referenceID: string;
  partnerId: string;
  status: CallbackStatus;
  attemptCount: number;
  createdAt: string;
  deliveredAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The last attempt's answer in the sender's shape, when it had one. */
  senderResponseType: string | null;
  senderErrorType: string | null;
  senderErrorDescription: string | null;
};

export type ListCallbacksOptions = { status?: string; partnerId?: string; limit?: number };

export async function listCallbacks(opts: ListCallbacksOptions): Promise<CallbackListItem[]> {
  if (opts.status !== undefined && !CALLBACK_STATUSES.includes(opts.status as CallbackStatus))
    throw new DomainError("invalid_input", `status must be one of ${CALLBACK_STATUSES.join(", ")}`);
  const limit = opts.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new DomainError("invalid_input", "limit must be a whole number from 1 to 1000");
  const rows = await db().callback.findMany({
    where: {
      ...(opts.status ? { status: opts.status as CallbackStatus } : {}),
      ...(opts.partnerId ? { partnerId: opts.partnerId } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: limit,
    include: { attempts: { orderBy: { attemptNumber: "desc" }, take: 1 } },
  });
  return rows.map((c) => {
    const last = c.attempts[0];
    return {
      callbackId: c.id,
      referenceID: c.transferId,
      partnerId: c.partnerId,
      status: c.status,
      attemptCount: c.attemptCount,
      createdAt: c.createdAt.toISOString(),
      deliveredAt: c.deliveredAt?.toISOString() ?? null,
      lastStatusCode: c.lastStatusCode,
      lastError: c.lastError,
      senderResponseType: last?.senderResponseType ?? null,
      senderErrorType: last?.senderErrorType ?? null,
      senderErrorDescription: last?.senderErrorDescription ?? null,
    };
  });
}
