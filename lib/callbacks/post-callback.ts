// One HTTP attempt at a callback: POST the body to the partner's URL and report the status code or the
// error, and the latency. No redirects are followed (a 3xx is a failed attempt), the whole attempt (DNS,
// connect, TLS, answer) has one deadline, the host is resolved and checked for every attempt (once for all
// of a batch's attempts, made at one instant: checkCallbackTarget) and the request goes over a keep-alive
// connection to that checked address (callback-connections.ts; the URL's host still names the server in
// the Host header and TLS SNI), and the answer's body is read only up to a small cap
// and thrown away: it may hold anything. An answer larger than the cap costs the connection.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { callbackAgent, forgetCallbackOrigin } from "@/lib/callbacks/callback-connections";
import {
  CallbackAddressRefused,
  hostOf,
  resolveCallbackHost,
  type ResolvedAddress,
  type Resolver,
} from "@/lib/callbacks/network-guard";

/** Bytes of the answer we read (and discard) before closing the connection. */
const RESPONSE_READ_CAP = 16 * 1024;

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

export const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status <= 299;

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
  const failed = (error: string, interrupted = false): AttemptResult => ({
    statusCode: null,
    error,
    latencyMs: latency(),
    retryAfter: null,
    interrupted,
  });
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
    // Once the status line has arrived the attempt has its answer, whatever happens to the body after it.
    let answered: (() => AttemptResult) | null = null;
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
      const result = (): AttemptResult => ({
        statusCode,
        error: isRedirect ? "redirect not followed" : null,
        latencyMs: latency(),
        retryAfter,
        interrupted: false,
      });
      answered = result;
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_READ_CAP) {
          finish(result());
          request.destroy();
        }
      });
      response.on("end", () => finish(result()));
      response.on("close", () => finish(result()));
      response.on("error", () => finish(result()));
    });
    const onAbort = () => {
      if (!settled) finish(answered ? answered() : describeAbort());
      request.destroy(new ShutdownAbort("aborted"));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    request.on("error", (err) => {
      if (answered) return finish(answered());
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
