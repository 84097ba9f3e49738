import { describe, expect, it } from "vitest";
import { CreatePartnerInputSchema, RotateWebhookSecretInputSchema } from "@/lib/partners/partner-inputs";
import { parseFlags, wholeNumber } from "@/lib/cli/flag-input";
import { DomainError } from "@/lib/errors";
import { StoreRulesChangeSchema } from "@/lib/stores/set-store-rules";

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error("accepted");
}

describe("parseFlags", () => {
  it("gives the schema's output for the flags, over the base values", () => {
    const values = { name: " Acme ", "callback-url": "https://acme.example/cb", npi: ["1558598797"] };
    expect(
      parseFlags(CreatePartnerInputSchema, values, { name: "name", callbackUrl: "callback-url", npis: "npi" }),
    ).toEqual({
      name: "Acme",
      callbackUrl: "https://acme.example/cb",
      npis: ["1558598797"],
    });
    const fields = { overlapHours: "overlap-hours" } as const;
    expect(parseFlags(RotateWebhookSecretInputSchema, {}, fields, { overlapHours: 24 })).toEqual({ overlapHours: 24 });
    expect(parseFlags(RotateWebhookSecretInputSchema, { "overlap-hours": "6" }, fields, { overlapHours: 24 })).toEqual({
      overlapHours: 6,
    });
  });

  it("names the flag, and the value of a repeated flag, in the schema's refusal", () => {
    const values = { name: "Acme", "callback-url": "https://acme.example/cb", npi: ["1558598797", "1234567890"] };
    const err = refusal(() =>
      parseFlags(CreatePartnerInputSchema, values, { name: "name", callbackUrl: "callback-url", npis: "npi" }),
    );
    expect(err.code).toBe("invalid_input");
    expect(err.message).toMatch(/^--npi 1234567890: must be a valid NPI/);
    expect(err.message).not.toContain("1558598797");
  });

  it("converts text with the field's conversion, naming the flag when it refuses", () => {
    const fields = { rxExpiryMonths: { flag: "rx-expiry-months", from: wholeNumber } };
    expect(parseFlags(StoreRulesChangeSchema, { "rx-expiry-months": " 9 " }, fields)).toEqual({ rxExpiryMonths: 9 });
    expect(refusal(() => parseFlags(StoreRulesChangeSchema, { "rx-expiry-months": "twelve" }, fields)).message).toBe(
      "--rx-expiry-months: must be a whole number",
    );
    expect(refusal(() => parseFlags(StoreRulesChangeSchema, { "rx-expiry-months": "0" }, fields)).message).toMatch(
      /^--rx-expiry-months: /,
    );
  });
});
