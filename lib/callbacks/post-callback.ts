// One HTTP attempt at a callback: POST the body to the partner's URL and report the status code or the
// error, the latency, and what the answer's body said (callback-answer.ts: the sender's callback API
// answers RX_CALLBACK_SUCCESS or RX_CALLBACK_ERROR). No redirects are followed (a 3xx is a failed attempt),
// the whole attempt (DNS, connect, TLS, answer and its body) has one deadline, the host is resolved and
// checked for every attempt (once for all of a batch's attempts, made at one instant: checkCallbackTarget)
// and the request goes over a keep-alive connection to that checked address (callback-connections.ts; the
// URL's host still names the server in the Host header and TLS SNI). The answer's body is read only up to
// a small cap (a larger one costs the connection); a body that has not ended by the deadline is a timeout.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import {
  ANSWER_READ_CAP,
  isDelivered,
  readCallbackAnswer,
  refusalText,
  RX_CALLBACK_ERROR,
  RX_CALLBACK_SUCCESS,
  unknownTypeText,
  type SenderAnswer,
} from "@/lib/callbacks/callback-answer";
import { callbackAgent, forgetCallbackOrigin } from "@/lib/callbacks/callback-connections";
import {
  CallbackAddressRefused,
  hostOf,
  resolveCallbackHost,
  type ResolvedAddress,
  type Resolver,
} from "@/lib/callbacks/network-guard";

export type AttemptResult = {
  /** The HTTP status code, when an answer came. */
  statusCode: number | null;
  /** Why the attempt failed without an answer (or, for a redirect, that it was not followed). */
  error: string | null;
  latencyMs: number;
  /** The answer's Retry-After header, as sent. */
  retryAfter: string | null;
  /** The attempt was cut short because this process is shutting down: not the partner's fault. */
  interrupted: boolean;
  /** The answer's body in the sender's shape (its metadata.responseType, and error of an RX_CALLBACK_ERROR). */
  sender: SenderAnswer | null;
  /** The start of an answer body that is not the sender's shape. */
  excerpt: string | null;
};

export type PostCallbackInput = {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  /** http:// URLs allowed (CALLBACK_ALLOW_INSECURE_HTTP): otherwise an http URL stored earlier fails every attempt, visibly. */
  allowInsecureHttp: boolean;
  /** Aborts the attempt (e.g. graceful shutdown of the worker). */
  signal?: AbortSignal;
  resolve?: Resolver;
  /** The URL already checked (checkCallbackTarget) for this instant's POSTs; otherwise it is checked here. */
  target?: Promise<CallbackTarget | TargetRefused>;
};

/** Delivered (callback-answer.ts): a complete 2xx whose body is not the sender's shape or says RX_CALLBACK_SUCCESS. */
export const isSuccess = (result: Pick<AttemptResult, "statusCode" | "error" | "sender">): boolean =>
  isDelivered(result);

/** An attempt that got no usable answer. */
export const attemptFailed = (error: string, latencyMs = 0, interrupted = false): AttemptResult => ({
  statusCode: null,
  error,
  latencyMs,
  retryAfter: null,
  interrupted,
  sender: null,
  excerpt: null,
});

class ShutdownAbort extends Error {}

/** Where a callback URL's POSTs go: the URL and the address the network guard approved, pinned. */
export type CallbackTarget = { url: URL; pinned: ResolvedAddress };
/** Why no POST goes to a callback URL (the attempt's error text). */
export type TargetRefused = { refused: string };

export type CheckCallbackTargetInput = Pick<
  PostCallbackInput,
  "url" | "allowPrivate" | "allowInsecureHttp" | "resolve"
>;

/**
 * The URL's checks, one resolution of its host and the network guard over every address it resolves to.
 * Never rejects. A refusal or a failed resolution closes the origin's kept connections. One check may serve
 * several POSTs made at the same instant (a batch: drain-callbacks.ts); each new connection still dials the
 * pinned address (callback-connections.ts), and the next check sees any address change.
 */
export async function checkCallbackTarget(input: CheckCallbackTargetInput): Promise<CallbackTarget | TargetRefused> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { refused: "the callback URL is not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { refused: "the callback URL must use http or https" };
  if (url.protocol === "http:" && !input.allowInsecureHttp) {
    return {
      refused:
        "the callback URL uses http://; callbacks go only to https:// URLs (CALLBACK_ALLOW_INSECURE_HTTP is off): set an https URL for this partner",
    };
  }
  try {
    return {
      url,
      pinned: await resolveCallbackHost(hostOf(url), { allowPrivate: input.allowPrivate, resolve: input.resolve }),
    };
  } catch (err) {
    // No connection to this origin outlives a refusal or a failed resolution.
    forgetCallbackOrigin(url);
    if (err instanceof CallbackAddressRefused) return { refused: err.message };
    const code = (err as { code?: string }).code;
    return {
      refused:
        code === "ENOTFOUND" || code === "EAI_AGAIN" ? `DNS: ${hostOf(url)} not found` : `DNS: ${errorText(err)}`,
    };
  }
}

export async function postCallback(input: PostCallbackInput): Promise<AttemptResult> {
  const started = performance.now();
  // One controller for the deadline and the caller's signal. (Not AbortSignal.timeout/any: on Node 20 a
  // combined signal nobody else references can be garbage-collected before it fires.)
  const controller = new AbortController();
  const signal = controller.signal;
  const deadline = setTimeout(() => controller.abort(), input.timeoutMs);
  const onOuterAbort = () => controller.abort();
  if (input.signal?.aborted) controller.abort();
  else input.signal?.addEventListener("abort", onOuterAbort, { once: true });
  try {
    return await attempt(input, signal, started);
  } finally {
    clearTimeout(deadline);
    input.signal?.removeEventListener("abort", onOuterAbort);
  }
}

async function attempt(input: PostCallbackInput, signal: AbortSignal, started: number): Promise<AttemptResult> {
  const latency = () => Math.round(performance.now() - started);
  const failed = (error: string, interrupted = false): AttemptResult => attemptFailed(error, latency(), interrupted);
  const describeAbort = () =>
    input.signal?.aborted
      ? failed("interrupted: the worker is shutting down", true)
      : failed(`timeout: no answer within ${input.timeoutMs} ms`);

  let target: CallbackTarget | TargetRefused;
  try {
    target = await abortable(input.target ?? checkCallbackTarget(input), signal);
  } catch {
    return describeAbort();
  }
  if ("refused" in target) return failed(target.refused);
  const { url, pinned } = target;

  const agent = callbackAgent(url, pinned);
  const isHttps = url.protocol === "https:";
  const hostname = hostOf(url);

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    // Once the status line has arrived, what an interruption means depends on that answer.
    let answered: ((ended: "timeout" | "interrupted" | "broken") => AttemptResult) | null = null;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: {
        ...input.headers,
        host: url.host,
        "content-length": String(Buffer.byteLength(input.body)),
      },
      agent,
      // A name is checked against the certificate; an IP literal gets no SNI (RFC 6066 §3).
      ...(isHttps && !isIP(hostname) ? { servername: hostname } : {}),
    };
    const request = (isHttps ? https : http).request(options, (response) => {
      const statusCode = response.statusCode ?? null;
      const retryAfterHeader = response.headers["retry-after"];
      const retryAfter = Array.isArray(retryAfterHeader) ? (retryAfterHeader[0] ?? null) : (retryAfterHeader ?? null);
      const isRedirect = statusCode !== null && statusCode >= 300 && statusCode <= 399;
      const chunks: Buffer[] = [];
      let read = 0;
      const result = (body: { complete: boolean } | { ended: "timeout" | "interrupted" | "broken" }): AttemptResult => {
        const base = { statusCode, latencyMs: latency(), retryAfter, interrupted: false, sender: null, excerpt: null };
        if (isRedirect) return { ...base, error: "redirect not followed" };
        if ("ended" in body) {
          // The status alone says nothing: the body may hold RX_CALLBACK_ERROR.
          if (body.ended === "interrupted")
            return { ...base, error: "interrupted: the worker is shutting down", interrupted: true };
          return {
            ...base,
            error:
              body.ended === "timeout"
                ? `timeout: the answer's body did not end within ${input.timeoutMs} ms`
                : "connection closed before the answer's body ended",
          };
        }
        const answer = readCallbackAnswer(Buffer.concat(chunks), body.complete);
        const sender = answer.sender;
        const is2xx = statusCode !== null && statusCode >= 200 && statusCode <= 299;
        const error = !sender
          ? null
          : sender.responseType === RX_CALLBACK_ERROR
            ? refusalText(sender)
            : is2xx && sender.responseType !== RX_CALLBACK_SUCCESS
              ? unknownTypeText(sender)
              : null;
        return { ...base, error, sender, excerpt: answer.excerpt };
      };
      answered = (ended) => result({ ended });
      response.on("data", (chunk: Buffer) => {
        if (settled) return;
        const room = ANSWER_READ_CAP - read;
        read += chunk.length;
        chunks.push(room < chunk.length ? chunk.subarray(0, Math.max(0, room)) : chunk);
        if (read > ANSWER_READ_CAP) {
          finish(result({ complete: false }));
          request.destroy();
        }
      });
      response.on("end", () => finish(result({ complete: true })));
      response.on("close", () => finish(result({ ended: "broken" })));
      response.on("error", () => finish(result({ ended: "broken" })));
    });
    const onAbort = () => {
      if (!settled) finish(answered ? answered(input.signal?.aborted ? "interrupted" : "timeout") : describeAbort());
      request.destroy(new ShutdownAbort("aborted"));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    request.on("error", (err) => {
      if (answered) return finish(answered("broken"));
      if (signal.aborted) return finish(describeAbort());
      finish(failed(networkErrorText(err)));
    });
    request.end(input.body);
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ShutdownAbort("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ShutdownAbort("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A network error as a short, stable text for the timeline (no answer bodies, no stack traces). */
function networkErrorText(err: Error): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset by the partner";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ETIMEDOUT":
      return "connection timed out";
    case "EPIPE":
      return "connection closed by the partner";
    default:
      if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(code)) return `TLS: ${code}`;
      return code ? `network error: ${code}` : `network error: ${err.message}`;
  }
}
