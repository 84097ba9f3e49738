import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  findJsonProblems,
  formatPath,
  MAX_JSON_DEPTH,
  NUL_PROBLEM,
  RESERVED_KEY_PROBLEM,
  safeTextCheck,
  SURROGATE_PROBLEM,
  textProblem,
} from "@/lib/text-safety";

/** Any single UTF-16 code unit (lone surrogates included) or any whole code point (pairs included). */
const utf16Unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

describe("textProblem", () => {
  it("accepts ordinary text, astral characters (a surrogate pair), the BOM and other control characters", () => {
    for (const ok of ["", "Alvarez", "Müller", "渡辺", "🙂 pill", "\uFEFFtext", "tab\there", "\u0001", "\uFFFD"]) {
      expect(textProblem(ok)).toBeNull();
    }
  });

  it("refuses a NUL anywhere", () => {
    for (const bad of ["\u0000", "a\u0000", "\u0000b", "mid\u0000dle"]) expect(textProblem(bad)).toBe(NUL_PROBLEM);
  });

  it("refuses a lone high or low surrogate, and pairs in the wrong order", () => {
    for (const bad of [
      "\ud800",
      "a\udbff",
      "\udc00b",
      "\udfff",
      "\udc00\ud800",
      "🙂\ud83d",
      "\ud83d\ud83d\ude42x\udc00",
    ]) {
      expect(textProblem(bad)).toBe(SURROGATE_PROBLEM);
    }
  });

  it("agrees with a round trip through UTF-8 for any UTF-16 string without NUL", () => {
    fc.assert(
      fc.property(fc.string({ unit: utf16Unit }), (s) => {
        const survivesUtf8 = Buffer.from(s, "utf8").toString("utf8") === s;
        expect(textProblem(s) === null).toBe(survivesUtf8 && !s.includes("\u0000"));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("safeTextCheck", () => {
  it("adds the problem as the issue's message and keeps the schema's other checks", () => {
    const schema = z.string().check(safeTextCheck).trim().max(5);
    expect(schema.safeParse(" ok ").data).toBe("ok");
    expect(schema.safeParse("a\u0000").error?.issues.map((i) => i.message)).toEqual([NUL_PROBLEM]);
    expect(schema.safeParse("\ud800").error?.issues.map((i) => i.message)).toEqual([SURROGATE_PROBLEM]);
    expect(schema.safeParse("toolong").success).toBe(false);
  });
});

describe("findJsonProblems", () => {
  it("finds nothing in a clean value", () => {
    expect(findJsonProblems({ a: ["x", 1, null, true, { b: "🙂" }] })).toEqual([]);
    expect(findJsonProblems(null)).toEqual([]);
  });

  it("names every string that cannot be stored, at any depth, and keys whose names cannot", () => {
    const value = JSON.parse(
      '{"patient":{"name":{"lastName":"A\\u0000"}},"list":["ok","\\ud800"],"meta":{"x\\u0000":"fine"}}',
    );
    expect(findJsonProblems(value)).toEqual([
      { path: ["patient", "name", "lastName"], message: NUL_PROBLEM },
      { path: ["list", 1], message: SURROGATE_PROBLEM },
      { path: ["meta", "x\u0000"], message: `has a name that ${NUL_PROBLEM}` },
    ]);
  });

  it("refuses a __proto__ key by name, as the own property JSON.parse makes of it, and still checks inside it", () => {
    expect(findJsonProblems(JSON.parse('{"__proto__":{"a":"\\u0000"}}'))).toEqual([
      { path: ["__proto__"], message: RESERVED_KEY_PROBLEM },
      { path: ["__proto__", "a"], message: NUL_PROBLEM },
    ]);
  });

  it("refuses constructor and prototype keys by name at any depth", () => {
    expect(findJsonProblems(JSON.parse('{"m":{"constructor":1,"x":[{"prototype":2}]},"proto":3}'))).toEqual([
      { path: ["m", "constructor"], message: RESERVED_KEY_PROBLEM },
      { path: ["m", "x", 0, "prototype"], message: RESERVED_KEY_PROBLEM },
    ]);
  });

  it("reports nesting beyond the limit once, where it starts, and does not descend further", () => {
    const deep = JSON.parse(`{"m":${"[".repeat(100_000)}"\\u0000"${"]".repeat(100_000)}}`);
    const problems = findJsonProblems(deep);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toHaveLength(MAX_JSON_DEPTH);
    expect(problems[0]!.message).toBe(`is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
    expect(findJsonProblems(JSON.parse(`${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`))).toEqual([]);
  });
});

describe("formatPath", () => {
  it("writes plain keys with dots, indexes in brackets and never echoes an odd key", () => {
    expect(formatPath(["patient", "allergyDetails", "allergies", 2])).toBe("patient.allergyDetails.allergies[2]");
    expect(formatPath(["metadata", "x\u0000"])).toBe("metadata[?]");
    expect(formatPath([])).toBe("");
  });
});
