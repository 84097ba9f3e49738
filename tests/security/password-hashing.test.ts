// Passwords are Argon2id (m=19456 KiB, t=2, p=1). A user whose stored hash is the earlier scrypt
// one still signs in, and that sign-in replaces the hash (audited as auth.password_rehashed).
import { describe, expect, it } from "vitest";
import { legacyScryptHash } from "@/lib/auth/passwords";
import { db } from "@/lib/db/prisma";
import { createTestUser, signInOverHttp } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();

describe("password hashes", () => {
  it("new users get Argon2id", async () => {
    const user = await createTestUser("pharmacist");
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
  });

  it("an scrypt hash is upgraded at the next successful sign-in, not at a failed one", async () => {
    const user = await createTestUser("pharmacist");
    await db().user.update({ where: { id: user.id }, data: { passwordHash: await legacyScryptHash(user.password) } });

    const wrong = await signInOverHttp(baseUrl, user.email, `${user.password}x`);
    expect(wrong.sessionCookie).toBeNull();
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash.startsWith("scrypt$")).toBe(
      true,
    );

    const right = await signInOverHttp(baseUrl, user.email, user.password);
    expect(right.sessionCookie).not.toBeNull();
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { userId: user.id, action: "auth.password_rehashed" },
    });
    expect(event.details).toEqual({ from: "scrypt", to: "argon2id" });

    // And the new hash works.
    expect((await signInOverHttp(baseUrl, user.email, user.password)).sessionCookie).not.toBeNull();
    expect(await db().auditEvent.count({ where: { userId: user.id, action: "auth.password_rehashed" } })).toBe(1);
  });
});
