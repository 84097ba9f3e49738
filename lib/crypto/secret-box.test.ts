import { beforeAll, describe, expect, it } from "vitest";
import { setEnv } from "@/lib/env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";

describe("secret box", () => {
  beforeAll(() => setEnv({ AUTH_SECRET: "a".repeat(40) }));

  it("round-trips and never stores the plain text", () => {
    const sealed = sealSecret("whsec_abc");
    expect(sealed).not.toContain("whsec_abc");
    expect(openSecret(sealed)).toBe("whsec_abc");
    expect(sealSecret("whsec_abc")).not.toBe(sealed);
  });

  it("refuses a tampered value and a value sealed under another key", () => {
    const sealed = sealSecret("secret");
    const parts = sealed.split(":");
    const body = Buffer.from(parts[4]!, "base64");
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString("base64");
    expect(() => openSecret(parts.join(":"))).toThrow();
    setEnv({ AUTH_SECRET: "b".repeat(40) });
    expect(() => openSecret(sealed)).toThrow();
  });
});
