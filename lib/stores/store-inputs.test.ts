import { describe, expect, it } from "vitest";
import { StoreInputSchema, storeAddressOf } from "@/lib/stores/store-inputs";

describe("store form inputs", () => {
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
