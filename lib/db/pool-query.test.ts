import pg from "pg";
import { describe, expect, it } from "vitest";
import { isStatementError } from "@/lib/db/pool-query";

/** An error as pg's protocol parser makes it from PostgreSQL's ErrorResponse. */
function serverError(code: string, severity = "ERROR"): pg.DatabaseError {
  const err = new pg.DatabaseError(`server said ${code}`, 0, "error");
  err.code = code;
  err.severity = severity;
  return err;
}

describe("isStatementError: which failures leave a pooled connection usable", () => {
  it("is true for PostgreSQL refusing one statement", () => {
    // unique and check violations, a bad value, a serialization failure, a statement timeout
    for (const code of ["23505", "23514", "22P02", "40001", "57014", "25P02"])
      expect(isStatementError(serverError(code)), code).toBe(true);
  });

  it("is false for the session ending or the server going away, and for anything without a SQLSTATE", () => {
    for (const code of ["08006", "08003", "08P01", "57P01", "57P02", "57P03", "57P05"])
      expect(isStatementError(serverError(code)), code).toBe(false);
    expect(isStatementError(serverError("XX000", "FATAL"))).toBe(false);
    expect(isStatementError(serverError("XX000", "PANIC"))).toBe(false);
    expect(isStatementError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(false);
    expect(isStatementError(new Error("Connection terminated unexpectedly"))).toBe(false);
    expect(isStatementError({ code: "23505" })).toBe(false);
    expect(isStatementError(undefined)).toBe(false);
  });
});
