import { describe, expect, it } from "vitest";
import { callbackUrlForAudit } from "@/lib/partners/audit-url";

describe("callbackUrlForAudit", () => {
  it("drops the query string (it may carry a token) and says so", () => {
    expect(callbackUrlForAudit("https://acme.example/rx?token=s3cret&x=1")).toEqual({
      callbackUrl: "https://acme.example/rx",
      callbackUrlQueryOmitted: true,
    });
    expect(callbackUrlForAudit("https://acme.example/rx")).toEqual({ callbackUrl: "https://acme.example/rx" });
    expect(JSON.stringify(callbackUrlForAudit("https://acme.example/a?token=s3cret#frag"))).not.toContain("s3cret");
  });
});
