// The HTTP edge of /v1: its route table, and the handlers that turn requests into domain calls. Every answer,
// failures included, is a TransferResponse envelope (lib/http/transfer-answers.ts, the one mapping from a
// refusal or a failure to an answer). No business rules here. Handlers take an ApiRequest and give an
// ApiAnswer: the production server calls POST /v1/transfer directly (lib/http/production-server.ts), and
// `v1Route` gives Next's route files (app/v1/**) their exports from the same table.
import { authenticateSender } from "@/lib/auth/sender-auth";
import { fromWebRequest, toWebResponse, type ApiAnswer, type ApiRequest } from "@/lib/http/api-exchange";
import { MALFORMED_PATH_DETAIL } from "@/lib/http/malformed-path";
import { answer, guarded, refusal, refuse } from "@/lib/http/transfer-answers";
import { handlePostTransfer, rateLimitRefusal, unauthorized } from "@/lib/http/transfer-intake";
import { findTransferResponse } from "@/lib/transfers/record";
import { textProblem } from "@/lib/text-safety";

export { handlePostTransfer };

type Handler = (request: ApiRequest, params: Record<string, string>) => Promise<ApiAnswer>;

/** Every /v1 endpoint, by its documented path, with the methods it answers; any other method is a 405. */
const V1_ROUTES = {
  "/v1/transfer": { POST: (request: ApiRequest) => handlePostTransfer(request) },
  "/v1/transfer/{referenceID}": {
    GET: (request: ApiRequest, params: Record<string, string>) => handleGetTransferStatus(request, params.referenceID!),
  },
} satisfies Record<string, Partial<Record<string, Handler>>>;

export type V1Path = keyof typeof V1_ROUTES;

function handleGetTransferStatus(request: ApiRequest, referenceID: string): Promise<ApiAnswer> {
  return guarded(request, "GET /v1/transfer/{referenceID}", async (ctx) => {
    const auth = await authenticateSender(request.headers.get("authorization"));
    if (!auth.ok) return refuse(ctx, "", unauthorized(auth.description, auth.error));
    const { sender } = auth;
    ctx.partnerId = sender.partnerId;
    const limited = await rateLimitRefusal(sender);
    if (limited) return refuse(ctx, "", limited);
    const problem = textProblem(referenceID);
    if (problem) return refuse(ctx, "", refusal(400, "SPEC_MISMATCH", `referenceID ${problem}`));
    const response = await findTransferResponse(sender.partnerId, referenceID);
    if (!response) {
      return refuse(
        ctx,
        "",
        refusal(404, "OTHER", "no transfer with this referenceID was received from these credentials"),
      );
    }
    return answer(ctx, response, 200);
  });
}

function handleMethodNotAllowed(request: ApiRequest, path: V1Path): Promise<ApiAnswer> {
  const allow = Object.keys(V1_ROUTES[path]).join(", ");
  return guarded(request, path, async (ctx) =>
    refuse(
      ctx,
      "",
      refusal(405, "OTHER", `method ${request.method} is not allowed here; allowed: ${allow}`, { headers: { allow } }),
    ),
  );
}

function handleNotFound(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "v1 unknown path", async (ctx) =>
    refuse(
      ctx,
      "",
      refusal(404, "OTHER", `no such endpoint: ${request.method} ${request.url.split("?")[0]}; see /v1/openapi.json`),
    ),
  );
}

/** A /v1 path that does not decode (lib/http/malformed-path.ts): the sender's request is at fault. */
export function handleMalformedPath(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "v1 malformed path", async (ctx) =>
    refuse(ctx, "", refusal(400, "SPEC_MISMATCH", `${MALFORMED_PATH_DETAIL} Nothing was stored; see /v1/openapi.json`)),
  );
}

type NextHandler = (
  request: Request,
  context?: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
const WRITE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type NextExports = Record<(typeof WRITE_METHODS)[number], NextHandler>;

/** A route file's exports for one /v1 path: its methods from the table, a 405 envelope for the others. */
export function v1Route(path: V1Path): NextExports {
  const methods: Partial<Record<string, Handler>> = V1_ROUTES[path];
  const exports = {} as NextExports;
  for (const method of WRITE_METHODS) {
    const handler = methods[method];
    exports[method] = handler
      ? async (request, context) => {
          const params = (context ? await context.params : {}) as Record<string, string>;
          return toWebResponse(await handler(fromWebRequest(request), params));
        }
      : (request) => handleMethodNotAllowed(fromWebRequest(request), path).then(toWebResponse);
  }
  return exports;
}

/** Any other /v1 path answers with a TransferResponse envelope, not Next's HTML 404 page. */
export const notFound = (request: Request) => handleNotFound(fromWebRequest(request)).then(toWebResponse);

/** POST /v1/transfer as a Next route handler (what `npm run dev` and `next start` serve). */
export const postTransfer = (request: Request) => handlePostTransfer(fromWebRequest(request)).then(toWebResponse);
