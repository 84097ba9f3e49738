import { describe, expect, it } from "vitest";
import { QueueQuerySchema } from "@/lib/transfers/queue";
import { selectQueuePage, type PageOptions } from "./queue";

const now = new Date("2026-03-04T05:06:07Z");
const page = (params: Record<string, unknown>, extra: Partial<PageOptions> = {}) =>
  selectQueuePage({ query: QueueQuerySchema.parse(params), phase: 1, after: null, limit: 51, now, ...extra }).compile();

describe("a queue page's statement", () => {
  it("is compiled once per shape: two name searches of one shape share it, each with its own values", () => {
    const garcia = page({ status: "all", q: "garcia ja", flags: ["warnings"] });
    const tanaka = page({ status: "all", q: "tanaka ab", flags: ["warnings"] }, { limit: 20 });
    // The same compiled statement (its tree is built once), the searches' values in its parameters.
    expect(tanaka.query).toBe(garcia.query);
    expect(tanaka.sql).toBe(garcia.sql);
    expect(garcia.parameters).toContain("garcia ja%");
    expect(garcia.parameters).toContain("ja garcia%");
    expect(garcia.parameters).not.toContain("tanaka ab%");
    expect(tanaka.parameters).toContain("tanaka ab%");
    expect(tanaka.parameters).toContain("ab tanaka%");
    expect(tanaka.parameters).toContain(20);
    expect(tanaka.parameters).not.toContain(51);
  });

  it("is another statement for another shape: one word (no reversed name), a filter, a keyset, a direction", () => {
    const base = page({ status: "all", q: "garcia ja" });
    const others = [
      page({ status: "all", q: "garcia" }),
      page({ status: "all", q: "garcia ja", sender: "ptn_1" }),
      page({ status: "all", q: "garcia ja" }, { after: { receivedAt: now, id: "trf_1" } }),
      page({ status: "all", q: "garcia ja", sort: "newest" }),
      page({ status: "CONFIRMED", q: "garcia ja" }),
      page({ status: "all", q: "garcia ja" }, { phase: 0 }),
    ];
    for (const other of others) expect(other.sql).not.toBe(base.sql);
    expect(new Set(others.map((o) => o.sql)).size).toBe(others.length);
    // A single word searches one name prefix, not the same one twice.
    expect(others[0]!.parameters.filter((p) => p === "garcia%")).toHaveLength(
      base.parameters.filter((p) => p === "garcia ja%").length,
    );
  });

  it("gives flags in any order, or repeated, the one statement", () => {
    const a = page({ q: "garcia", flags: ["warnings", "controlled"] });
    const b = page({ q: "garcia", flags: ["controlled", "warnings", "controlled"] });
    expect(b.query).toBe(a.query);
    expect(b.parameters).toEqual(a.parameters);
  });
});
