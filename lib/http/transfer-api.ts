// The HTTP edge of /v1: turns requests into domain calls and every outcome, failures included, into a
// TransferResponse envelope with the status docs/interface.md settles. No business rules here. Handlers take an
// ApiRequest and give an ApiAnswer; the exports at the bottom adapt them to Next's route handlers.
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { authenticateSender, knownApiKeyOf, WWW_AUTHENTICATE, type Sender } from "@/lib/auth/sender-auth";
import { fromWebRequest, jsonAnswer, toWebResponse, type ApiAnswer, type ApiRequest } from "@/lib/http/api-exchange";
import { logUnexpectedFailure } from "@/lib/db/errors";
import { MALFORMED_PATH_DETAIL } from "@/lib/http/malformed-path";
import { isJsonContentType, MAX_BODY_BYTES } from "@/lib/http/read-body";
import { requestIdOf } from "@/lib/http/request-context";
import { log } from "@/lib/log";
import { observeV1Request } from "@/lib/ops/metrics";
import { recordPartnerAnswer } from "@/lib/partners/partner-answer-counts";
import { consumeRateLimit } from "@/lib/rate-limit/consume-rate-limit";
import { env } from "@/lib/env";
import { getStoreNpis } from "@/lib/stores/store-npis";
import { findTransferResponse } from "@/lib/transfers/find-transfer-response";
import { textProblem } from "@/lib/text-safety";
import { findImmediateConfirmNpis } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { receiveTransfer, receiveTransferWithKeyCheck } from "@/lib/transfers/receive-transfer";
import { findShapeProblem } from "@/lib/transfers/request-shape";
import { errorResponse } from "@/lib/transfers/responses";
import { readRequestId, validateTransferRequest } from "@/lib/transfers/validate-request";
import type { ErrorType, TransferRequest, TransferResponse } from "@/lib/transfers/wire";

/** partnerId: whose credentials these are, once known (a 503 after that is still counted against the partner). */
type Ctx = { requestId: string; started: number; route: string; partnerId?: string };

function answer(
  ctx: Ctx,
  body: TransferResponse,
  status: number,
  headers: Record<string, string> = {},
  logFields: Record<string, unknown> = {},
): ApiAnswer {
  const partnerId = (logFields.partnerId as string | undefined) ?? ctx.partnerId;
  recordPartnerAnswer(partnerId, status, performance.now() - ctx.started);
  observeV1Request(
    ctx.route,
    status,
    body.error?.type,
    (performance.now() - ctx.started) / 1000,
    "idempotent-replayed" in headers,
  );
  log(status >= 500 ? "error" : "info", "v1 request", {
    requestId: ctx.requestId,
    route: ctx.route,
    status,
    responseType: body.metadata.responseType,
    errorType: body.error?.type,
    referenceID: body.metadata.referenceID,
    durationMs: Math.round(performance.now() - ctx.started),
    ...logFields,
  });
  return jsonAnswer(body, status, { "x-request-id": ctx.requestId, ...headers });
}

function fail(
  ctx: Ctx,
  status: number,
  requestID: string,
  type: ErrorType,
  description: string,
  headers: Record<string, string> = {},
  logFields: Record<string, unknown> = {},
) {
  return answer(ctx, errorResponse(requestID, type, description), status, headers, logFields);
}

async function guarded(request: ApiRequest, route: string, run: (ctx: Ctx) => Promise<ApiAnswer>): Promise<ApiAnswer> {
  const ctx: Ctx = { requestId: requestIdOf(request), started: performance.now(), route };
  try {
    return await run(ctx);
  } catch (err) {
    if (logUnexpectedFailure(err, ctx.requestId).unavailable) {
      return fail(
        ctx,
        503,
        "",
        "OTHER",
        `the service is temporarily unavailable; retry later (request id ${ctx.requestId})`,
        { "retry-after": "5" },
      );
    }
    return fail(
      ctx,
      500,
      "",
      "OTHER",
      `internal error; nothing was stored. Retry, or quote request id ${ctx.requestId} to support`,
    );
  }
}

const rateLimitKey = (sender: Sender) => `v1:${sender.credential}:${sender.credentialId}`;

/** The caller's credential is over its budget: 429 with Retry-After, or null to go on. */
async function rateLimited(ctx: Ctx, sender: Sender, requestID: string): Promise<ApiAnswer | null> {
  const limit = env().V1_RATE_LIMIT_PER_MINUTE;
  const result = await consumeRateLimit(rateLimitKey(sender), limit, 60);
  if (result.allowed) return null;
  return fail(
    ctx,
    429,
    requestID,
    "OTHER",
    `rate limit exceeded: at most ${limit} requests a minute for these credentials; retry after ${result.retryAfterSeconds} s`,
    { "retry-after": String(result.retryAfterSeconds) },
    { partnerId: sender.partnerId },
  );
}

function unauthorized(ctx: Ctx, requestID: string, description: string, reason: string) {
  return fail(
    ctx,
    401,
    requestID,
    "OTHER",
    description,
    { "www-authenticate": WWW_AUTHENTICATE },
    { authError: reason },
  );
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : "unparseable" };
  }
}

export function handlePostTransfer(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "POST /v1/transfer", async (ctx) => {
    // The caller is known from the header before the body is read: an anonymous body costs nothing (the
    // answers before the body is read echo no requestID, which the document allows).
    const authorization = request.headers.get("authorization");
    const key = knownApiKeyOf(authorization);
    let sender: Sender;
    if (key) {
      // Checked again in the statement that stores the transfer (receiveTransferWithKeyCheck), and fully
      // below before anything else is answered.
      sender = { partnerId: key.partnerId, npis: key.npis, credential: "apiKey", credentialId: key.keyId };
    } else {
      const auth = await authenticateSender(authorization);
      if (!auth.ok) return unauthorized(ctx, "", auth.description, auth.error);
      sender = auth.sender;
    }
    ctx.partnerId = sender.partnerId;
    const limited = await rateLimited(ctx, sender, "");
    if (limited) return limited;
    const partner = { partnerId: sender.partnerId };
    // A key known only from this process's cache may have been revoked since: before any answer other than
    // a stored transfer it is checked against the database (error answers only, so the fast path keeps its
    // one statement). Null: the key still holds.
    let confirmedKey = key === null;
    const keyRefused = async (requestID: string): Promise<ApiAnswer | null> => {
      if (confirmedKey) return null;
      const auth = await authenticateSender(authorization);
      if (!auth.ok) return unauthorized(ctx, requestID, auth.description, auth.error);
      sender = auth.sender;
      confirmedKey = true;
      return null;
    };

    const body = await request.readBody(MAX_BODY_BYTES);
    if (!body.ok && body.reason === "aborted") {
      return fail(ctx, 400, "", "SPEC_MISMATCH", "the request body ended before it was complete; nothing was stored");
    }
    if (!body.ok && body.reason === "too_large") {
      return (
        (await keyRefused("")) ??
        fail(ctx, 413, "", "OTHER", `request body is larger than the limit of ${MAX_BODY_BYTES} bytes (1 MB)`)
      );
    }
    if (!isJsonContentType(request.headers.get("content-type"))) {
      return (
        (await keyRefused("")) ??
        fail(ctx, 415, "", "SPEC_MISMATCH", "Content-Type must be application/json (UTF-8)", {}, partner)
      );
    }
    // The shape is bounded before anything is built from the body, so one request's cost is bounded too.
    const shapeProblem = body.ok ? findShapeProblem(body.text) : null;
    if (shapeProblem) {
      return (
        (await keyRefused("")) ??
        fail(ctx, 400, "", "SPEC_MISMATCH", `${shapeProblem}; nothing was stored`, {}, partner)
      );
    }
    const parsed = body.ok ? tryParseJson(body.text) : null;
    if (!parsed?.ok) {
      const what = !parsed
        ? "request body is not UTF-8 text"
        : body.ok && body.text.trim() === ""
          ? "request body is empty"
          : `request body is not valid JSON (${parsed.message})`;
      return (
        (await keyRefused("")) ??
        fail(ctx, 400, "", "SPEC_MISMATCH", `${what}: expected a TransferRequest object`, {}, partner)
      );
    }
    const requestID = readRequestId(parsed.value);
    if (key) {
      const stored = await receiveWithKnownKey(ctx, sender, key, parsed.value);
      if (stored) return stored;
    }
    // Anything else is answered by the full path.
    return (await keyRefused(requestID)) ?? (await receive(ctx, sender, parsed.value, requestID));
  });
}

/**
 * The valid-request path for an API key this process has seen valid: the same validation and NPI checks as
 * below, then one statement that checks the key again and stores the transfer, instead of a lookup and an
 * insert. It answers only a stored transfer; anything else (a refused key, a bad request, a conflict) goes on
 * to the full path, which answers exactly as before.
 */
async function receiveWithKnownKey(
  ctx: Ctx,
  sender: Sender,
  key: KnownApiKey,
  body: unknown,
): Promise<ApiAnswer | null> {
  const validation = validateTransferRequest(body, { storeNpis: await getStoreNpis(), now: new Date() });
  if (!validation.ok || npiRefusal(sender, validation.request)) return null;
  // A store with immediate confirmation on takes the full path, which judges the transfer in its transaction.
  if ((await findImmediateConfirmNpis()).has(validation.request.receivingPharmacy.npi)) return null;
  const response = await receiveTransferWithKeyCheck({ key, request: validation.request });
  if (!response) return null;
  return answer(ctx, response, 200, {}, { partnerId: sender.partnerId, outcome: "created" });
}

/** Why these credentials may not send this request's sendingPharmacy, or null. */
function npiRefusal(sender: Sender, request: TransferRequest): "partner_without_npis" | "unregistered_npi" | null {
  // Not the request's fault but the credentials': no request can pass until the pharmacy registers NPIs.
  if (sender.npis.length === 0 && env().REQUIRE_PARTNER_NPIS) return "partner_without_npis";
  if (sender.npis.length > 0 && !sender.npis.includes(request.sendingPharmacy.npi)) return "unregistered_npi";
  return null;
}

async function receive(ctx: Ctx, sender: Sender, body: unknown, requestID: string): Promise<ApiAnswer> {
  const validation = validateTransferRequest(body, { storeNpis: await getStoreNpis(), now: new Date() });
  if (!validation.ok) {
    return fail(
      ctx,
      400,
      requestID,
      validation.type,
      validation.description,
      {},
      {
        partnerId: sender.partnerId,
        fields: validation.issues.slice(0, 20).map((i) => i.path),
      },
    );
  }
  const transferRequest = validation.request;
  const npiProblem = npiRefusal(sender, transferRequest);
  if (npiProblem === "partner_without_npis") {
    return fail(
      ctx,
      403,
      requestID,
      "OTHER",
      "these credentials have no registered sending pharmacy NPIs, and this service accepts transfers only from registered NPIs; ask the receiving pharmacy to register yours",
      {},
      {
        partnerId: sender.partnerId,
        authError: "partner_without_npis",
      },
    );
  }
  if (npiProblem === "unregistered_npi") {
    return fail(
      ctx,
      400,
      requestID,
      "INVALID_INFO",
      "sendingPharmacy.npi is not one of the pharmacies registered for these credentials",
      {},
      {
        partnerId: sender.partnerId,
      },
    );
  }
  const outcome = await receiveTransfer(sender.partnerId, transferRequest);
  const fields = { partnerId: sender.partnerId, outcome: outcome.kind };
  switch (outcome.kind) {
    case "created":
      return answer(ctx, outcome.response, 200, {}, fields);
    case "replayed":
      return answer(
        ctx,
        outcome.response,
        outcome.response.metadata.responseType === "ERROR" ? 400 : 200,
        { "idempotent-replayed": "true" },
        fields,
      );
    case "duplicate":
      return answer(
        ctx,
        errorResponse(requestID, "DUPLICATE_REQUEST", outcome.description, outcome.referenceID),
        400,
        {},
        fields,
      );
  }
}

function handleGetTransferStatus(request: ApiRequest, referenceID: string): Promise<ApiAnswer> {
  return guarded(request, "GET /v1/transfer/{referenceID}", async (ctx) => {
    const auth = await authenticateSender(request.headers.get("authorization"));
    if (!auth.ok) return unauthorized(ctx, "", auth.description, auth.error);
    ctx.partnerId = auth.sender.partnerId;
    const limited = await rateLimited(ctx, auth.sender, "");
    if (limited) return limited;
    const problem = textProblem(referenceID);
    if (problem)
      return fail(ctx, 400, "", "SPEC_MISMATCH", `referenceID ${problem}`, {}, { partnerId: auth.sender.partnerId });
    const response = await findTransferResponse(auth.sender.partnerId, referenceID);
    if (!response) {
      return fail(
        ctx,
        404,
        "",
        "OTHER",
        "no transfer with this referenceID was received from these credentials",
        {},
        { partnerId: auth.sender.partnerId },
      );
    }
    return answer(ctx, response, 200, {}, { partnerId: auth.sender.partnerId });
  });
}

function handleMethodNotAllowed(request: ApiRequest, route: string, allow: string): Promise<ApiAnswer> {
  return guarded(request, route, async (ctx) =>
    fail(ctx, 405, "", "OTHER", `method ${request.method} is not allowed here; allowed: ${allow}`, { allow }),
  );
}

function handleNotFound(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "v1 unknown path", async (ctx) =>
    fail(
      ctx,
      404,
      "",
      "OTHER",
      `no such endpoint: ${request.method} ${request.url.split("?")[0]}; see /v1/openapi.json`,
    ),
  );
}

/** A /v1 path that does not decode (lib/http/malformed-path.ts): the sender's request is at fault. */
export function handleMalformedPath(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "v1 malformed path", async (ctx) =>
    fail(ctx, 400, "", "SPEC_MISMATCH", `${MALFORMED_PATH_DETAIL} Nothing was stored; see /v1/openapi.json`),
  );
}

// Next's route handlers.
export const postTransfer = (request: Request) => handlePostTransfer(fromWebRequest(request)).then(toWebResponse);
export const getTransferStatus = (request: Request, referenceID: string) =>
  handleGetTransferStatus(fromWebRequest(request), referenceID).then(toWebResponse);
export const methodNotAllowed = (request: Request, route: string, allow: string) =>
  handleMethodNotAllowed(fromWebRequest(request), route, allow).then(toWebResponse);
export const notFound = (request: Request) => handleNotFound(fromWebRequest(request)).then(toWebResponse);
