import { describe, expect, it } from "vitest";
import {
  CreateApiKeyFormSchema,
  CreatePartnerFormSchema,
  splitNpis,
  UpdatePartnerInputSchema,
} from "@/lib/partners/partner-inputs";

describe("partner form inputs", () => {
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
});
