import { describe, expect, it } from "vitest";
import { parseAuditQuery } from "@/lib/audit/audit-query";
import { DomainError } from "@/lib/errors";

describe("audit log queries", () => {
  it("reads filters and keyset cursors from the query string", () => {
    const q = parseAuditQuery(
      new URLSearchParams(
        "user=Ada@x.example&action=partner.*&cursor=42&limit=10&order=oldest&from=2026-01-01T00:00:00Z",
      ),
    );
    expect(q).toMatchObject({
      user: "Ada@x.example",
      action: "partner.*",
      cursor: "42",
      limit: 10,
      order: "oldest",
      from: "2026-01-01T00:00:00Z",
    });
    expect(parseAuditQuery(new URLSearchParams("user=&action=")).order).toBe("newest");
    for (const bad of [
      "cursor=-1",
      "action=a b",
      "limit=1000",
      "to=tomorrow",
      "from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z",
    ]) {
      expect(() => parseAuditQuery(new URLSearchParams(bad)), bad).toThrow(DomainError);
    }
  });
});
