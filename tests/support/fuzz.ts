// Shared pieces of the fuzz suites (tests/integration/fuzz-*.test.ts) that run them: fast-check's parameters
// with a replayable seed, a raw HTTP client that sends exactly the bytes and path it is given, and the checks
// every answer of a route must pass whatever was sent. What they send comes from fuzz-values.ts,
// fuzz-mutations.ts and fuzz-bytes-and-paths.ts.
import fc from "fast-check";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, expect } from "vitest";
import { expectAnswerInDocument } from "@/tests/support/contract";

/**
 * A failing run prints `{ seed, path }` with the shrunk counterexample; replay it with
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run tests/integration/fuzz-….test.ts`. CI uses the fixed
 * default seed, so a run is the same every time.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const FUZZ_PATH = process.env.FUZZ_PATH;

/** Requests sent by this file's fuzz properties (shrinking included), for reportFuzzRun's line. */
let requestCount = 0;

export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  return {
    seed: FUZZ_SEED,
    numRuns,
    // A replayed path runs only the failing case and its shrinks.
    ...(FUZZ_PATH ? { path: FUZZ_PATH } : {}),
    // A bound on the whole run, shrinking over HTTP included; an interrupted run fails with what it has.
    interruptAfterTimeLimit: 120_000,
    markInterruptAsFailure: true,
  };
}

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; text: string };

export type RawRequest = {
  method: string;
  /** Sent as is, not normalised or re-encoded (node:http only refuses control characters and spaces). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
};

const headerReader = (headers: IncomingHttpHeaders) => ({
  get: (name: string) => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(", ") : value;
  },
});

/**
 * One request on a fresh connection. An answer of an operation of the published document must match it
 * (tests/support/contract.ts): a status, header or body the document does not describe fails the property. A connection the server drops without an answer rejects, which
 * fails the property: "never a dropped connection" is part of every route's contract.
 */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  requestCount++;
  const url = new URL(baseUrl);
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === "string"
        ? Buffer.from(req.body, "utf8")
        : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent: false,
        headers: { ...req.headers, ...(body ? { "content-length": String(body.length) } : {}) },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const answer = {
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          };
          try {
            expectAnswerInDocument({
              method: req.method,
              path: req.path,
              status: answer.status,
              headers: headerReader(res.headers),
              text: answer.text,
            });
          } catch (err) {
            reject(err as Error);
            return;
          }
          resolve(answer);
        });
        res.on("error", (err) => reject(new Error(`connection dropped mid-answer: ${err.message}`)));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.on("error", (err) => reject(new Error(`connection dropped: ${err.message}`)));
    outgoing.end(body);
  });
}

/** Status, content type and JSON body, and never a 5xx; `describe` says what was sent, for the report. */
export function expectJsonAnswer(answer: RawAnswer, contentType: string): unknown {
  expect(answer.status, `status ${answer.status}: ${answer.text.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
  expect(answer.status, `status ${answer.status}: ${answer.text.slice(0, 500)}`).toBeLessThan(500);
  expect(answer.headers["content-type"] ?? "", `status ${answer.status}: ${answer.text.slice(0, 300)}`).toMatch(
    new RegExp(`^${contentType.replace("+", "\\+")}`),
  );
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new Error(`answer ${answer.status} is not JSON: ${answer.text.slice(0, 300)}`);
  }
}

/** RFC 9457 problem details whose status is the answer's own. */
export function expectProblem(answer: RawAnswer): void {
  const body = expectJsonAnswer(answer, "application/problem+json") as Record<string, unknown>;
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
    status: answer.status,
  });
}

/**
 * Next answers a path it normalises (a trailing slash, repeated slashes, backslashes, a `#` sent raw) by a
 * 308 to the normalised path on this server, before any route runs; a client that follows it gets the
 * route's answer. Anything else (an off-site location, another 3xx) fails the property.
 */
export function isNormalisingRedirect(answer: RawAnswer): boolean {
  const location = answer.headers.location ?? "";
  return answer.status === 308 && location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\");
}

/**
 * Next's own 405, with an empty body, for a method a dashboard route does not export: a known gap (the
 * /v1 routes export every method for this reason; the dashboard's do not yet).
 */
export function isNextMethodNotAllowed(answer: RawAnswer): boolean {
  return answer.status === 405 && answer.text === "" && answer.headers["content-type"] === undefined;
}

/**
 * Whether the path, once dot segments (`..`, `%2e%2e`) are resolved as servers and browsers resolve them,
 * is still under `prefix`; one that leaves it is answered by whatever route it reaches.
 */
export function resolvesUnder(path: string, prefix: string): boolean {
  const pathname = new URL(path.split("?")[0]!.replace(/#/g, "%23"), "http://fuzz.invalid").pathname;
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** For a path that left the route family under test: any route's answer, but never a 5xx. */
export function expectNoServerError(answer: RawAnswer): void {
  expect(answer.status, `status ${answer.status}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
}

/** Registers the line a fuzz file prints at its end: seed, requests sent and time taken. */
export function reportFuzzRun(name: string): void {
  const started = performance.now();
  afterAll(() => {
    console.log(
      `${name}: seed ${FUZZ_SEED}, ${requestCount} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  });
}
