// What a callback's answer means. The sender's callback API (docs/senders/callbacks.md) answers a body of
// the TransferResponse shape whose metadata.responseType is RX_CALLBACK_SUCCESS (received and processed) or
// RX_CALLBACK_ERROR (received, not processed: error.type and error.description say why), and it does not
// say which HTTP status goes with the error: a 200 may carry it. A plain webhook receiver answers a 2xx with
// an empty or unrelated body. So a callback is delivered on a 2xx whose body either is not a JSON object with
// metadata.responseType or says RX_CALLBACK_SUCCESS; RX_CALLBACK_ERROR, with any status, is the sender's
// refusal. Pure functions: the worker, the admin's test callback and the tests share them; the schema is the
// answer's shape as the OpenAPI document's webhooks list it.
import * as z from "zod";

export const RX_CALLBACK_SUCCESS = "RX_CALLBACK_SUCCESS";
export const RX_CALLBACK_ERROR = "RX_CALLBACK_ERROR";

/** The sender's callback API's answer, as we read it: only metadata.responseType and error matter. */
export const CallbackAnswerSchema = z
  .looseObject({
    requestID: z.string().optional(),
    metadata: z.looseObject({
      responseType: z.string().meta({ description: "`RX_CALLBACK_SUCCESS` or `RX_CALLBACK_ERROR`." }),
      referenceID: z.string().optional(),
      responseID: z.string().optional(),
      responseTimestamp: z.string().optional(),
    }),
    error: z
      .looseObject({
        type: z.string().meta({ description: "One of the interface's error types, e.g. `MISSING_INFO`." }),
        description: z.string(),
      })
      .optional()
      .meta({ description: "Why an `RX_CALLBACK_ERROR` could not be processed; kept on the callback's timeline." }),
  })
  .meta({
    id: "CallbackAnswer",
    description:
      "The answer of the sender's Prescription Transfer Callback API. A plain webhook receiver may answer any or no body instead.",
  });

/** Bytes of an answer's body that are read; the rest is not read (and costs the connection). */
export const ANSWER_READ_CAP = 16 * 1024;
/** Characters kept of an answer body that is not the sender's shape, for the timeline. */
export const EXCERPT_CAP = 300;
/** Characters kept of the sender's error.type and error.description. */
const ERROR_TYPE_CAP = 64;
const DESCRIPTION_CAP = 500;

/** What the body of an answer said in the sender's shape. */
export type SenderAnswer = {
  /** metadata.responseType as sent (capped). */
  responseType: string;
  /** error.type and error.description of an RX_CALLBACK_ERROR (null when absent). */
  errorType: string | null;
  description: string | null;
};

export type ReadAnswer = {
  sender: SenderAnswer | null;
  /** The start of a non-empty body that is not the sender's shape. */
  excerpt: string | null;
};

/** Text that can go to the timeline and to PostgreSQL: no NUL, no other control characters, capped. */
function cleanText(value: string, cap: number): string {
  const cleaned = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/[\ud800-\udfff]/g, "");
  return cleaned.length > cap ? `${cleaned.slice(0, cap)}…` : cleaned;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The answer's body as read (at most ANSWER_READ_CAP bytes; `complete` false when there was more).
 * A body cut at the cap is never taken for the sender's shape: its JSON would be incomplete anyway.
 */
export function readCallbackAnswer(body: Buffer, complete: boolean): ReadAnswer {
  if (body.length === 0) return { sender: null, excerpt: null };
  const text = body.toString("utf8");
  if (complete) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isObject(parsed) && isObject(parsed.metadata) && typeof parsed.metadata.responseType === "string") {
      const error = isObject(parsed.error) ? parsed.error : {};
      return {
        sender: {
          responseType: cleanText(parsed.metadata.responseType, ERROR_TYPE_CAP),
          errorType: typeof error.type === "string" ? cleanText(error.type, ERROR_TYPE_CAP) : null,
          description: typeof error.description === "string" ? cleanText(error.description, DESCRIPTION_CAP) : null,
        },
        excerpt: null,
      };
    }
  }
  const excerpt = cleanText(text.trim(), EXCERPT_CAP);
  return { sender: null, excerpt: excerpt === "" ? null : excerpt };
}

type Answered = { statusCode: number | null; error: string | null; sender: SenderAnswer | null };

/** Delivered: a 2xx, complete, whose body is not the sender's shape or says RX_CALLBACK_SUCCESS. */
export function isDelivered(result: Answered): boolean {
  if (result.statusCode === null || result.statusCode < 200 || result.statusCode > 299 || result.error !== null)
    return false;
  return result.sender === null || result.sender.responseType === RX_CALLBACK_SUCCESS;
}

/** Refused by the sender: RX_CALLBACK_ERROR, whatever the status. Not retried automatically. */
export function isRefusedBySender(result: Pick<Answered, "sender">): boolean {
  return result.sender?.responseType === RX_CALLBACK_ERROR;
}

/** The refusal in a line: "RX_CALLBACK_ERROR MISSING_INFO: could not map callback - requestID is missing". */
export function refusalText(sender: SenderAnswer): string {
  const detail = [sender.errorType, sender.description].filter((s) => s !== null && s !== "").join(": ");
  return `${RX_CALLBACK_ERROR}${detail ? ` ${detail}` : ""}`;
}

/** Why a 2xx in the sender's shape is not a delivery when it is neither of the two types. */
export function unknownTypeText(sender: SenderAnswer): string {
  return `the answer's metadata.responseType ${JSON.stringify(sender.responseType)} is not ${RX_CALLBACK_SUCCESS}`;
}
