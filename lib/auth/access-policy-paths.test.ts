// Encoded, case-changed and dot-segment spellings of an admin path get the admin row.
import { describe, expect, it } from "vitest";
import { accessRuleFor, isAllowed, isPublic, pathVariants } from "@/lib/auth/access-policy";

describe("non-canonical spellings of a path", () => {
  it.each([
    "/api/%61dmin/users",
    "/api/%2561dmin/users",
    "/API/admin/users",
    "/api/ADMIN/users",
    "/Api/%41dmin/users",
    "/api/transfers/..%2f..%2fadmin/users",
    "/api/transfers/%2e%2e/admin/users",
    "/api/transfers/%252e%252e/admin/users",
    "/api//admin/users",
    "/api/transfers/..%5cadmin/users",
    "/admin%2fusers",
    "/%61dmin/partners",
  ])("%s is not open to a pharmacist nor to the anonymous", (path) => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const rule = accessRuleFor(path, method);
      expect(isPublic(rule), path).toBe(false);
      expect(isAllowed(rule, "pharmacist"), path).toBe(false);
    }
  });

  it("leaves canonical paths their own row", () => {
    expect(accessRuleFor("/api/admin/users").pattern).toBe("/api/admin/**");
    expect(isAllowed(accessRuleFor("/api/admin/users"), "admin")).toBe(true);
    expect(accessRuleFor("/api/transfers/trf_AbC/claim", "POST").pattern).toBe("/api/transfers/*/claim");
    expect(isPublic(accessRuleFor("/v1/transfer/trf_AbC"))).toBe(true);
    expect(isPublic(accessRuleFor("/login"))).toBe(true);
  });

  it("an admin keeps access to a spelling of an admin path", () => {
    expect(isAllowed(accessRuleFor("/api/%61dmin/users"), "admin")).toBe(true);
  });

  it("reads a path decoded, resolved and lowercased", () => {
    expect(pathVariants("/API/x/..%2fadmin")).toEqual(expect.arrayContaining(["/api/admin", "/API/x/../admin"]));
  });
});
