import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env-schema";
import { keysRequiredBecause, missingSecretsMessage, productionSettingProblems } from "@/lib/ops/required-settings";

const KEYS = {
  AUTH_SECRET: "a".repeat(32),
  DATA_ENCRYPTION_KEY: "d".repeat(32),
  AUDIT_HMAC_KEY: "h".repeat(32),
};
const STORE = { PHARMACY_NPI: "1558598797", PHARMACY_NAME: "Main Street Pharmacy" };
const OIDC = { OIDC_ISSUER: "https://idp.example", OIDC_CLIENT_ID: "rx", OIDC_CLIENT_SECRET: "s" };

describe("keys", () => {
  it("are generated only for development on the embedded database", () => {
    expect(keysRequiredBecause(parseEnv({}), false)).toBeNull();
    expect(keysRequiredBecause(parseEnv({ DATABASE_URL: "postgresql://db/rx" }), false)).toBe("with DATABASE_URL set");
    expect(keysRequiredBecause(parseEnv({}), true)).toBe("in production");
    expect(keysRequiredBecause(parseEnv({ NODE_ENV: "production" }), false)).toBeNull();
  });

  it("missing are named, with the command that makes each", () => {
    const message = missingSecretsMessage(parseEnv({ AUTH_SECRET: KEYS.AUTH_SECRET }), "with DATABASE_URL set");
    expect(message).toContain("refusing to start with DATABASE_URL set without DATA_ENCRYPTION_KEY, AUDIT_HMAC_KEY:");
    expect(message).toContain('export DATA_ENCRYPTION_KEY="$(openssl rand -base64 32)"');
    expect(message).toContain('export AUDIT_HMAC_KEY="$(openssl rand -base64 32)"');
    expect(message).not.toContain("export AUTH_SECRET");
    expect(missingSecretsMessage(parseEnv(KEYS), "in production")).toBeNull();
  });
});

describe("npm start's other settings", () => {
  it("refuses the demo pharmacy, unset or given", () => {
    expect(productionSettingProblems(parseEnv(KEYS)).join("\n")).toMatch(
      /PHARMACY_NPI is not set \(or is the demo's 1245319599\)[\s\S]*PHARMACY_NAME is not set/,
    );
    expect(productionSettingProblems(parseEnv({ ...KEYS, PHARMACY_NPI: "1245319599", PHARMACY_NAME: "X" }))).toEqual([
      expect.stringMatching(/^PHARMACY_NPI is not set/),
    ]);
    expect(productionSettingProblems(parseEnv({ ...KEYS, ...STORE }))).toEqual([]);
    expect(productionSettingProblems(parseEnv({ ...KEYS, ALLOW_DEMO_PHARMACY: "true" }))).toEqual([]);
  });

  it("asks for PUBLIC_URL with single sign-on, and takes DASHBOARD_URL as its old name", () => {
    expect(productionSettingProblems(parseEnv({ ...KEYS, ...STORE, ...OIDC }))).toEqual([
      expect.stringMatching(/^PUBLIC_URL is not set, and single sign-on \(OIDC_ISSUER\) needs it: export PUBLIC_URL=/),
    ]);
    const settings = parseEnv({ ...KEYS, ...STORE, ...OIDC, DASHBOARD_URL: "https://rx.pharmacy.example/" });
    expect(settings.PUBLIC_URL).toBe("https://rx.pharmacy.example");
    expect(productionSettingProblems(settings)).toEqual([]);
  });
});

describe("PUBLIC_URL", () => {
  it("is an http(s) origin", () => {
    expect(parseEnv({ PUBLIC_URL: "https://rx.pharmacy.example:8443" }).PUBLIC_URL).toBe(
      "https://rx.pharmacy.example:8443",
    );
    for (const bad of ["rx.pharmacy.example", "ftp://rx.example", "https://rx.example/app", "https://rx.example/?a=1"])
      expect(() => parseEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL: must be an http\(s\):\/\/ origin/);
    expect(() => parseEnv({ PUBLIC_URL: "https://a.example", DASHBOARD_URL: "https://b.example" })).toThrow(
      /DASHBOARD_URL: is the old name of PUBLIC_URL and differs/,
    );
  });
});

describe("SMTP_URL", () => {
  it("takes no query (whose options could turn TLS off)", () => {
    expect(() => parseEnv({ SMTP_URL: "smtp://u:p@mail.example:587?ignoreTLS=true" })).toThrow(/SMTP_URL: must be/);
    expect(parseEnv({ SMTP_URL: "smtps://u:p@mail.example:465" }).SMTP_URL).toBe("smtps://u:p@mail.example:465");
  });
});
