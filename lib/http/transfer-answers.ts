// How the /v1 edge answers: every outcome, failures included, is a TransferResponse envelope with the status
// docs/interface.md settles, counted for the partner, observed in /metrics and logged once. A refusal is a
// value (V1Refusal); `guarded` turns anything thrown into the 503 or 500 envelope. This is the /v1 edge's one
// error-to-answer mapping: its handlers (lib/http/transfer-api.ts, lib/http/transfer-intake.ts) return
// refusals and never build an error envelope themselves.
import { jsonAnswer, type ApiAnswer, type ApiRequest } from "@/lib/http/api-exchange";
import { logUnexpectedFailure } from "@/lib/db/errors";
import { requestIdOf } from "@/lib/http/request-context";
import { isLogged, log } from "@/lib/log";
import { observeV1Request } from "@/lib/ops/metrics";
import { recordPartnerAnswer } from "@/lib/partners/partner-answer-counts";
import { errorResponse } from "@/lib/interface";
import type { ErrorType, TransferResponse } from "@/lib/interface";

/** One /v1 request as the edge tracks it. partnerId: whose credentials these are, once known. */
export type V1Context = { requestId: string; started: number; route: string; partnerId?: string };

/** Why a request is refused: the envelope's error, its status, and what else the answer and its log line carry. */
export type V1Refusal = {
  status: number;
  type: ErrorType;
  description: string;
  headers?: Record<string, string>;
  log?: Record<string, unknown>;
};

export function refusal(
  status: number,
  type: ErrorType,
  description: string,
  extra: { headers?: Record<string, string>; log?: Record<string, unknown> } = {},
): V1Refusal {
  return { status, type, description, ...extra };
}

/** Any /v1 answer: counted against the partner, observed, logged, written as JSON with the request id. */
export function answer(
  ctx: V1Context,
  body: TransferResponse,
  status: number,
  headers?: Record<string, string>,
  logFields?: Record<string, unknown>,
): ApiAnswer {
  const elapsedMs = performance.now() - ctx.started;
  recordPartnerAnswer(ctx.partnerId, status, elapsedMs);
  observeV1Request(ctx.route, status, body.error?.type, elapsedMs / 1000, headers?.["idempotent-replayed"] === "true");
  const level = status >= 500 ? "error" : "info";
  if (isLogged(level)) {
    log(level, "v1 request", {
      requestId: ctx.requestId,
      route: ctx.route,
      status,
      responseType: body.metadata.responseType,
      errorType: body.error?.type,
      referenceID: body.metadata.referenceID,
      durationMs: Math.round(elapsedMs),
      ...(ctx.partnerId ? { partnerId: ctx.partnerId } : {}),
      ...logFields,
    });
  }
  return jsonAnswer(
    body,
    status,
    headers ? { "x-request-id": ctx.requestId, ...headers } : { "x-request-id": ctx.requestId },
  );
}

/** The error envelope of a refusal; requestID is echoed once the body has been read ("" before). */
export function refuse(ctx: V1Context, requestID: string, r: V1Refusal): ApiAnswer {
  return answer(ctx, errorResponse(requestID, r.type, r.description), r.status, r.headers, r.log);
}

/** Runs one /v1 request: whatever it throws is a 503 (the database is away) or a 500 naming the request id. */
export async function guarded(
  request: ApiRequest,
  route: string,
  run: (ctx: V1Context) => Promise<ApiAnswer>,
): Promise<ApiAnswer> {
  const ctx: V1Context = { requestId: requestIdOf(request), started: performance.now(), route };
  try {
    return await run(ctx);
  } catch (err) {
    if (logUnexpectedFailure(err, ctx.requestId).unavailable) {
      return refuse(
        ctx,
        "",
        refusal(503, "OTHER", `the service is temporarily unavailable; retry later (request id ${ctx.requestId})`, {
          headers: { "retry-after": "5" },
        }),
      );
    }
    return refuse(
      ctx,
      "",
      refusal(
        500,
        "OTHER",
        `internal error; nothing was stored. Retry, or quote request id ${ctx.requestId} to support`,
      ),
    );
  }
}
