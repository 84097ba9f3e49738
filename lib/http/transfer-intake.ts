// POST /v1/transfer as one ordered list of steps: authenticate → rate limit → read the body → content type
// → shape → parse → validate → sending NPI → store. Each step either lets the request go on or refuses it;
// the refusal becomes the answer (lib/http/transfer-answers.ts). The body is read, parsed and validated once.
//
// Authenticating has two strategies. A key this process has seen valid is taken on trust for the moment
// (no round trip): the store checks it again inside the statement that stores the transfer. Every other
// answer, refusals included, must not rest on that trust, so before one is given the key is looked up in
// full (`confirmSender`), and a step that judged the sender (the NPI check) judges the confirmed one again.
// Any other caller is looked up in full before anything else.
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { authenticateSender, knownApiKeyOf, WWW_AUTHENTICATE, type Sender } from "@/lib/auth/sender-auth";
import type { ApiAnswer, ApiRequest } from "@/lib/http/api-exchange";
import { isJsonContentType, MAX_BODY_BYTES } from "@/lib/http/read-body";
import { answer, guarded, refusal, refuse, type V1Context, type V1Refusal } from "@/lib/http/transfer-answers";
import { env } from "@/lib/env";
import { consumeRateLimit } from "@/lib/rate-limit/consume-rate-limit";
import { getStoreNpis } from "@/lib/stores/store-npis";
import { receiveTransfer, receiveTransferWithKeyCheck } from "@/lib/transfers/intake";
import { findShapeProblem, errorResponse, readRequestId, validateTransferRequest } from "@/lib/interface";
import type { TransferRequest } from "@/lib/interface";

/** One request as it goes through the steps; each fills in what it found. */
type Intake = {
  ctx: V1Context;
  request: ApiRequest;
  authorization: string | null;
  sender: Sender;
  /** Set while the sender rests on a key this process has seen valid, not yet looked up for this request. */
  trustedKey: KnownApiKey | null;
  text: string;
  body: unknown;
  /** What an error answer echoes: "" until the body is parsed. */
  requestID: string;
  transfer: TransferRequest;
};

/** Go on (undefined), refuse, or answer (the transfer stored, or a refusal that must not wait for the key check). */
type StepResult = undefined | { refuse: V1Refusal; untrusted?: true } | { answer: ApiAnswer };

type Step = {
  run(intake: Intake): Promise<StepResult> | StepResult;
  /** The step judged the sender: after the key is confirmed, it runs again with the confirmed sender. */
  judgesSender?: true;
};

/** The credentials are over their budget (V1_RATE_LIMIT_PER_MINUTE): 429 with Retry-After, or null to go on. */
export async function rateLimitRefusal(sender: Sender): Promise<V1Refusal | null> {
  const limit = env().V1_RATE_LIMIT_PER_MINUTE;
  const result = await consumeRateLimit(`v1:${sender.credential}:${sender.credentialId}`, limit, 60);
  if (result.allowed) return null;
  return refusal(
    429,
    "OTHER",
    `rate limit exceeded: at most ${limit} requests a minute for these credentials; retry after ${result.retryAfterSeconds} s`,
    { headers: { "retry-after": String(result.retryAfterSeconds) } },
  );
}

export function unauthorized(description: string, reason: string): V1Refusal {
  return refusal(401, "OTHER", description, {
    headers: { "www-authenticate": WWW_AUTHENTICATE },
    log: { authError: reason },
  });
}

/** The two ways to know the caller. The first that applies wins. */
const AUTHENTICATE: ReadonlyArray<(intake: Intake) => Promise<StepResult> | StepResult | null> = [
  function trustKnownKey(intake) {
    const key = knownApiKeyOf(intake.authorization);
    if (!key) return null;
    intake.trustedKey = key;
    intake.sender = { partnerId: key.partnerId, npis: key.npis, credential: "apiKey", credentialId: key.keyId };
    return undefined;
  },
  async function lookUpCredentials(intake) {
    const auth = await authenticateSender(intake.authorization);
    if (!auth.ok) return { refuse: unauthorized(auth.description, auth.error) };
    intake.sender = auth.sender;
    return undefined;
  },
];

/** The trusted key looked up in full for this request: a refusal (401) if it no longer holds, else null. */
async function confirmSender(intake: Intake): Promise<V1Refusal | null> {
  intake.trustedKey = null;
  const auth = await authenticateSender(intake.authorization);
  if (!auth.ok) return unauthorized(auth.description, auth.error);
  intake.sender = auth.sender;
  intake.ctx.partnerId = auth.sender.partnerId;
  return null;
}

/** Why these credentials may not send this request's sendingPharmacy, or undefined. */
function npiRefusal(sender: Sender, transfer: TransferRequest): V1Refusal | undefined {
  // Not the request's fault but the credentials': no request can pass until the pharmacy registers NPIs.
  if (sender.npis.length === 0 && env().REQUIRE_PARTNER_NPIS) {
    return refusal(
      403,
      "OTHER",
      "these credentials have no registered sending pharmacy NPIs, and this service accepts transfers only from registered NPIs; ask the receiving pharmacy to register yours",
      { log: { authError: "partner_without_npis" } },
    );
  }
  if (sender.npis.length > 0 && !sender.npis.includes(transfer.sendingPharmacy.npi)) {
    return refusal(
      400,
      "INVALID_INFO",
      "sendingPharmacy.npi is not one of the pharmacies registered for these credentials",
    );
  }
  return undefined;
}

const STORED_LOG = { outcome: "created" } as const;

/** The steps, in order. The caller is known from the header before the body is read: an anonymous body costs nothing. */
const INTAKE_STEPS: readonly Step[] = [
  {
    async run(intake) {
      for (const strategy of AUTHENTICATE) {
        const result = await strategy(intake);
        if (result === null) continue;
        if (result === undefined) intake.ctx.partnerId = intake.sender.partnerId;
        return result;
      }
      return undefined;
    },
  },
  {
    // Counted whether or not the key is confirmed yet: a refused key's requests are over budget too.
    async run({ sender }) {
      const limited = await rateLimitRefusal(sender);
      return limited ? { refuse: limited, untrusted: true } : undefined;
    },
  },
  {
    async run(intake) {
      const body = await intake.request.readBody(MAX_BODY_BYTES);
      if (body.ok) {
        intake.text = body.text;
        return undefined;
      }
      if (body.reason === "aborted") {
        // The client went away: whoever it was, nothing more is owed to it.
        return {
          refuse: refusal(400, "SPEC_MISMATCH", "the request body ended before it was complete; nothing was stored"),
          untrusted: true,
        };
      }
      if (body.reason === "too_large") {
        return {
          refuse: refusal(413, "OTHER", `request body is larger than the limit of ${MAX_BODY_BYTES} bytes (1 MB)`),
        };
      }
      // Not UTF-8: still answered by the steps below (415 first), as a body that cannot be parsed.
      intake.text = "";
      intake.body = NOT_TEXT;
      return undefined;
    },
  },
  {
    run({ request }) {
      if (isJsonContentType(request.headers.get("content-type"))) return undefined;
      return { refuse: refusal(415, "SPEC_MISMATCH", "Content-Type must be application/json (UTF-8)") };
    },
  },
  {
    // The shape is bounded before anything is built from the body, so one request's cost is bounded too.
    run(intake) {
      if (intake.body === NOT_TEXT) return undefined;
      const problem = findShapeProblem(intake.text);
      return problem ? { refuse: refusal(400, "SPEC_MISMATCH", `${problem}; nothing was stored`) } : undefined;
    },
  },
  {
    run(intake) {
      let what: string;
      if (intake.body === NOT_TEXT) what = "request body is not UTF-8 text";
      else {
        try {
          intake.body = JSON.parse(intake.text);
          intake.requestID = readRequestId(intake.body);
          return undefined;
        } catch (err) {
          what =
            intake.text.trim() === ""
              ? "request body is empty"
              : `request body is not valid JSON (${err instanceof Error ? err.message : "unparseable"})`;
        }
      }
      return { refuse: refusal(400, "SPEC_MISMATCH", `${what}: expected a TransferRequest object`) };
    },
  },
  {
    async run(intake) {
      const validation = validateTransferRequest(intake.body, { storeNpis: await getStoreNpis(), now: new Date() });
      if (validation.ok) {
        intake.transfer = validation.request;
        return undefined;
      }
      return {
        refuse: refusal(400, validation.type, validation.description, {
          log: { fields: validation.issues.slice(0, 20).map((i) => i.path) },
        }),
      };
    },
  },
  {
    run: ({ sender, transfer }) => {
      const refused = npiRefusal(sender, transfer);
      return refused ? { refuse: refused } : undefined;
    },
    judgesSender: true,
  },
  {
    async run(intake) {
      const { ctx, transfer, trustedKey } = intake;
      // With a trusted key, the statement that stores the transfer checks the key (for a store with immediate
      // confirmation on, the first of its transaction's). Anything not stored (a refused key, a conflict)
      // takes the full path.
      if (trustedKey) {
        const response = await receiveTransferWithKeyCheck({ key: trustedKey, request: transfer });
        if (response) return { answer: answer(ctx, response, 200, undefined, STORED_LOG) };
      }
      if (intake.trustedKey) {
        const refused = await confirmSender(intake);
        if (refused) return { refuse: refused };
        // The confirmed sender may differ (its NPIs changed): judged again before anything is stored.
        const npi = npiRefusal(intake.sender, transfer);
        if (npi) return { refuse: npi };
      }
      const outcome = await receiveTransfer(intake.sender.partnerId, transfer);
      const fields = { outcome: outcome.kind };
      switch (outcome.kind) {
        case "created":
          return { answer: answer(ctx, outcome.response, 200, undefined, fields) };
        case "replayed":
          return {
            answer: answer(
              ctx,
              outcome.response,
              outcome.response.metadata.responseType === "ERROR" ? 400 : 200,
              { "idempotent-replayed": "true" },
              fields,
            ),
          };
        case "duplicate":
          return {
            answer: answer(
              ctx,
              errorResponse(intake.requestID, "DUPLICATE_REQUEST", outcome.description, outcome.referenceID),
              400,
              undefined,
              fields,
            ),
          };
      }
    },
  },
];

/** Marks a body that is not UTF-8 text (nothing to scan or parse). */
const NOT_TEXT = Symbol("not UTF-8 text");

async function runIntake(intake: Intake): Promise<ApiAnswer> {
  for (let i = 0; i < INTAKE_STEPS.length; i++) {
    const step = INTAKE_STEPS[i]!;
    // Most steps are synchronous: awaiting only a promise saves a turn of the microtask queue per step.
    const pending = step.run(intake);
    let result = pending instanceof Promise ? await pending : pending;
    if (result === undefined) continue;
    if ("answer" in result) return result.answer;
    if (intake.trustedKey && !result.untrusted) {
      const refused = await confirmSender(intake);
      if (refused) return refuse(intake.ctx, intake.requestID, refused);
      if (step.judgesSender) {
        result = await step.run(intake);
        if (result === undefined) continue;
        if ("answer" in result) return result.answer;
      }
    }
    return refuse(intake.ctx, intake.requestID, result.refuse);
  }
  throw new Error("the intake steps ended without an answer");
}

export function handlePostTransfer(request: ApiRequest): Promise<ApiAnswer> {
  return guarded(request, "POST /v1/transfer", (ctx) =>
    runIntake({
      ctx,
      request,
      authorization: request.headers.get("authorization"),
      sender: undefined as unknown as Sender,
      trustedKey: null,
      text: "",
      body: undefined,
      requestID: "",
      transfer: undefined as unknown as TransferRequest,
    }),
  );
}
