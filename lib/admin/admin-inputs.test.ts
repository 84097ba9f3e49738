import { describe, expect, it } from "vitest";
import {
  CreateApiKeyFormSchema,
  CreatePartnerFormSchema,
  splitNpis,
  StoreInputSchema,
  storeAddressOf,
  UpdatePartnerInputSchema,
} from "@/lib/admin/admin-inputs";
import { parseAuditQuery } from "@/lib/admin/audit-log";
import { DomainError } from "@/lib/errors";

describe("admin form inputs", () => {
  it("reads NPIs as people type them and names the bad ones", () => {
    expect(splitNpis(" 1234567893, 1558598797\n1234567893;")).toEqual(["1234567893", "1558598797"]);
    const ok = CreatePartnerFormSchema.safeParse({
      name: " Acme ",
      callbackUrl: "https://acme.example/cb",
      npis: "1234567893 1558598797",
    });
    expect(ok.success && ok.data).toEqual({
      name: "Acme",
      callbackUrl: "https://acme.example/cb",
      npis: ["1234567893", "1558598797"],
    });
    const bad = CreatePartnerFormSchema.safeParse({
      name: "Acme",
      callbackUrl: "https://acme.example/cb",
      npis: "1234567893, 1234567890",
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain("1234567890");
  });

  it("takes an empty expiry as never, and refuses nonsense", () => {
    expect(CreateApiKeyFormSchema.parse({ expiresInDays: "" })).toEqual({ expiresInDays: null });
    expect(CreateApiKeyFormSchema.parse({ expiresInDays: "90" })).toEqual({ expiresInDays: 90 });
    expect(CreateApiKeyFormSchema.safeParse({ expiresInDays: "0" }).success).toBe(false);
    expect(CreateApiKeyFormSchema.safeParse({ expiresInDays: "1.5" }).success).toBe(false);
  });

  it("needs something to change on a partner", () => {
    expect(UpdatePartnerInputSchema.safeParse({}).success).toBe(false);
    expect(UpdatePartnerInputSchema.safeParse({ npis: [] }).success).toBe(true);
  });

  it("takes a store's address whole or not at all", () => {
    const bare = StoreInputSchema.parse({ name: "East", npi: "1558598797", dea: "", addressLine1: "", city: "" });
    expect(storeAddressOf(bare)).toBeNull();
    const full = StoreInputSchema.parse({
      name: "East",
      npi: "1558598797",
      dea: "as1234563",
      addressLine1: "1 Main St",
      city: "Philadelphia",
      state: "pa",
      postalCode: "19107",
    });
    expect(full.dea).toBe("AS1234563");
    expect(storeAddressOf(full)).toEqual({
      addressLine1: "1 Main St",
      addressLine2: null,
      city: "Philadelphia",
      state: "PA",
      postalCode: "19107",
      countryCode: "US",
    });
    const partial = StoreInputSchema.safeParse({ name: "East", npi: "1558598797", city: "Philadelphia" });
    expect(partial.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["addressLine1", "postalCode", "state"]);
  });
});

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
