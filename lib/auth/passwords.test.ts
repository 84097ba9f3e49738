import { describe, expect, it } from "vitest";
import { hashPassword, legacyScryptHash, needsRehash, verifyPassword } from "@/lib/auth/passwords";

describe("passwords", () => {
  it("hashes with Argon2id at OWASP's parameters, and verifies the right password only", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    expect(await hashPassword("same password 1")).not.toBe(await hashPassword("same password 1"));
  });

  it("still verifies the earlier scrypt hashes, and says they need rehashing", async () => {
    const old = await legacyScryptHash("an older password");
    expect(old.startsWith("scrypt$16384$8$1$")).toBe(true);
    expect(await verifyPassword("an older password", old)).toBe(true);
    expect(await verifyPassword("an older passwore", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it("asks for a rehash of Argon2 hashes with weaker parameters or another variant", () => {
    expect(needsRehash("$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA")).toBe(true);
    expect(needsRehash("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA")).toBe(true);
  });

  it("refuses a malformed stored hash instead of throwing", async () => {
    expect(await verifyPassword("x", "plain")).toBe(false);
    expect(await verifyPassword("x", "$argon2id$v=19$m=19456,t=2,p=1$broken")).toBe(false);
    expect(await verifyPassword("x", "scrypt$99$8$1$c2FsdA==$a2V5")).toBe(false);
    expect(await verifyPassword("x", "scrypt$16384$8$1$c2FsdA==$")).toBe(false);
  });
});
