// Hostile values for the fuzz suites: unstorable and hostile text, extreme numbers, hostile keys, deep nesting,
// and any of them as a JSON value.
import fc from "fast-check";

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
