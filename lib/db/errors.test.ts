import { describe, expect, it } from "vitest";
import { causeChain, isDatabaseUnavailable, isTransientDatabaseError, isUniqueViolation } from "./errors";

describe("database error classification", () => {
  it("finds an unreachable database under Prisma's wrapping, by code or by message", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new Error("query failed", { cause: new Error("adapter", { cause: socket }) }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error("Can't reach database server at localhost"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("admin shutdown"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable("not an error")).toBe(false);
  });

  it("finds a unique violation as Prisma, the driver or the adapter's meta reports it", () => {
    expect(isUniqueViolation(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBe(true);
    expect(isUniqueViolation(new Error("wrapped", { cause: Object.assign(new Error("dup"), { code: "23505" }) }))).toBe(
      true,
    );
    expect(isUniqueViolation(Object.assign(new Error("adapter"), { meta: { code: "23505" } }))).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(false);
  });

  it("finds a transient failure as the driver reports it and as Prisma's adapter wraps it", () => {
    const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
    for (const code of ["40001", "40P01", "55P03", "57014", "57P01"])
      expect(isTransientDatabaseError(pgError(code))).toBe(true);
    // Prisma's raw-query error keeps the adapter's mapped error under meta, with the original SQLSTATE or a kind.
    const wrapped = (cause: object) =>
      Object.assign(new Error("raw query failed"), { code: "P2010", meta: { driverAdapterError: { cause } } });
    expect(isTransientDatabaseError(wrapped({ kind: "TransactionWriteConflict", originalCode: "40P01" }))).toBe(true);
    expect(isTransientDatabaseError(wrapped({ kind: "postgres", code: "55P03", originalCode: "55P03" }))).toBe(true);
    expect(isTransientDatabaseError(wrapped({ kind: "ConnectionClosed" }))).toBe(true);
    expect(isTransientDatabaseError(new Error("Connection terminated unexpectedly"))).toBe(true);
    // A rule the data breaks fails again when run again.
    expect(isTransientDatabaseError(pgError("23505"))).toBe(false);
    expect(isTransientDatabaseError(wrapped({ kind: "postgres", code: "23503", originalCode: "23503" }))).toBe(false);
    expect(isTransientDatabaseError(new Error("callback names a partner that does not exist"))).toBe(false);
  });

  it("walks a cause chain that loops back on itself once per error", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect([...causeChain(b)].map((e) => e.message)).toEqual(["b", "a"]);
    expect(isDatabaseUnavailable(b)).toBe(false);
  });
});
