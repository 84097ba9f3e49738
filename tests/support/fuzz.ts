// Shared pieces of the fuzz suites (tests/integration/fuzz-*.test.ts): fast-check's parameters with a
// replayable seed, a raw HTTP client that sends exactly the bytes and path it is given, hostile values
// and JSON mutations, and the checks every answer of a route must pass whatever was sent.
import fc from "fast-check";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, expect } from "vitest";

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

/**
 * One request on a fresh connection. A connection the server drops without an answer rejects, which
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
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
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

// ---------------------------------------------------------------------------------------------------
// Hostile values

/** Strings PostgreSQL cannot store: a NUL or a lone surrogate somewhere in otherwise ordinary text. */
export const unstorableTextArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"),
    fc.string({ maxLength: 8 }),
  )
  .map(([before, bad, after]) => before + bad + after);

/** Text a sender might send by mistake or on purpose. */
export const hostileTextArb: fc.Arbitrary<string> = fc.oneof(
  unstorableTextArb,
  fc.constantFrom(
    "",
    " ",
    "\uFEFF",
    "\uFEFFMaria",
    "\uFFFD",
    "🙂",
    "𠮷野家",
    "e\u0301",
    "\u202Eevil",
    "'; DROP TABLE transfers; --",
    "%00",
    "\\u0000",
    "null",
    "0",
    "-1",
    "NaN",
    "1e999",
    "__proto__",
    "constructor",
  ),
  fc.constantFrom(5000, 40, 36, 11, 2).map((length) => "x".repeat(length)),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

/** Numbers at the edges of what JSON and JavaScript hold. */
export const extremeNumberArb: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    9,
    10,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e308,
    1e-320,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Object keys: ordinary, prototype-polluting, unstorable, long. */
export const hostileKeyArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "extra", "", " ", "metadata", "toString", "a.b", "[0]"),
  unstorableTextArb,
  fc.string({ maxLength: 20 }),
  fc.constant("k".repeat(5000)),
);

/** A value nested `depth` levels deep, in arrays or objects (thousands deep are sent as text, see fuzz-transfer). */
export function nested(depth: number, inObjects: boolean, leaf: unknown = "leaf"): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = inObjects ? { n: value } : [value];
  return value;
}

export const hostileValueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileTextArb },
  { weight: 2, arbitrary: extremeNumberArb },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(10, 33, 100).chain((depth) => fc.boolean().map((inObjects) => nested(depth, inObjects))),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileTextArb, { maxLength: 3 }) },
);

/** Sets an own property, even `__proto__` (plain assignment would change the prototype instead). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type JsonPath = (string | number)[];

/** Every path in a JSON value, containers included, root first. */
export function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const paths: JsonPath[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** The paths of every string leaf. */
export function stringPathsOf(value: unknown): JsonPath[] {
  return pathsOf(value).filter((path) => typeof valueAt(value, path) === "string");
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) current = (current as Record<string | number, unknown>)[segment];
  return current;
}

export type Mutation =
  | { kind: "delete"; at: number }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "addKey"; at: number; key: string; value: unknown }
  | { kind: "spliceText"; at: number; text: string; position: number };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: hostileValueArb }),
  fc.record({ kind: fc.constant("addKey" as const), at: fc.nat(), key: hostileKeyArb, value: hostileValueArb }),
  fc.record({ kind: fc.constant("spliceText" as const), at: fc.nat(), text: hostileTextArb, position: fc.nat() }),
);

/**
 * Applies mutations to a copy of `base`. `at` picks among the value's paths at that moment (modulo), so a
 * mutation stays meaningful while fast-check shrinks the others away.
 */
export function mutate(base: unknown, mutations: readonly Mutation[]): unknown {
  let root: unknown = structuredClone(base);
  for (const mutation of mutations) {
    const paths = mutation.kind === "spliceText" ? stringPathsOf(root) : pathsOf(root);
    if (paths.length === 0) continue;
    const path = paths[mutation.at % paths.length]!;
    const parent =
      path.length === 0 ? undefined : (valueAt(root, path.slice(0, -1)) as Record<string | number, unknown>);
    const key = path[path.length - 1];
    switch (mutation.kind) {
      case "delete":
        if (parent === undefined || key === undefined) root = undefined;
        else if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
        else delete parent[key];
        break;
      case "replace":
        if (parent === undefined || key === undefined) root = mutation.value;
        else setOwn(parent as Record<string, unknown>, String(key), mutation.value);
        break;
      case "addKey": {
        const target = valueAt(root, path);
        if (target !== null && typeof target === "object" && !Array.isArray(target))
          setOwn(target as Record<string, unknown>, mutation.key, mutation.value);
        break;
      }
      case "spliceText": {
        const text = valueAt(root, path) as string;
        const at = mutation.position % (text.length + 1);
        const spliced = text.slice(0, at) + mutation.text + text.slice(at);
        if (parent === undefined || key === undefined) root = spliced;
        else setOwn(parent as Record<string, unknown>, String(key), spliced);
        break;
      }
    }
  }
  return root;
}

/** Bytes that are not UTF-8: stray continuation bytes, overlongs, CESU-8 surrogates, truncated sequences. */
export const invalidUtf8Arb: fc.Arbitrary<Uint8Array> = fc
  .constantFrom(
    [0x80],
    [0xbf],
    [0xc0, 0x80],
    [0xc3],
    [0xe0, 0xa4],
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xff],
    [0xfe, 0xff],
    [0xf0, 0x9f, 0x99],
  )
  .map((bytes) => Uint8Array.from(bytes));

/** A JSON text with raw bytes spliced in somewhere. */
export function spliceBytes(text: string, bytes: Uint8Array, position: number): Uint8Array {
  const encoded = Buffer.from(text, "utf8");
  const at = position % (encoded.length + 1);
  return Buffer.concat([encoded.subarray(0, at), bytes, encoded.subarray(at)]);
}

/**
 * Percent-encodes text for a path or query as its UTF-8 bytes; a lone surrogate, which has no UTF-8 form,
 * as the CESU-8 bytes a careless client would send (%ED%A0%80 for U+D800).
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        : [...Buffer.from(char, "utf8")];
    out += /^[A-Za-z0-9\-._~]$/.test(char)
      ? char
      : bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  return out;
}

/**
 * Raw path characters, sent as they are: any visible ASCII, so `%`, `..`, `?`, `#` and stray escapes. Bytes
 * outside ASCII are not HTTP (RFC 9112 §3.2): Node's parser refuses them with a bare 400 before any route.
 */
export const rawPathTextArb = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

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

/**
 * Malformed and hostile paths under `family` (`/v1`), with `resource` (`/v1/transfer`) standing for a
 * route that takes an id: bad percent-encodings, a NUL, CESU-8 surrogates, overlongs, dot segments,
 * repeated and trailing slashes, very long paths, raw ASCII and hostile ids.
 */
export function hostilePathArb(family: string, resource: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      family,
      `${family}/`,
      `${family}//${resource.slice(family.length + 1)}`,
      `${family}/%FF`,
      `${family}/${"%25".repeat(1500)}`,
      ...[
        "%ZZ",
        "%",
        "%00",
        "x%00",
        "%ED%A0%80",
        "%ED%B0%80/status",
        "%E0%A4%A",
        "%C0%80",
        "..%2F..%2Fadmin",
        "%2e%2e/",
        "%2e%2e/%2e%2e/v1/transfer",
        "",
        "a/b/c",
        `x${"a".repeat(4000)}`,
      ].map((tail) => `${resource}/${tail}`),
      `${resource}?x=%00`,
    ),
    rawPathTextArb.map((tail) => `${resource}/${tail}`),
    rawPathTextArb.map((tail) => `${family}/${tail}`),
    fc.oneof(unstorableTextArb, hostileTextArb).map((id) => `${resource}/${percentEncode(id)}`),
  );
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
