import { afterEach, describe, expect, it, vi } from "vitest";
import { setEnv } from "@/lib/env";
import { errorFields, log, redactMessage, withoutQuery } from "@/lib/log";

afterEach(() => vi.restoreAllMocks());

function captured(run: () => void): string {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
  run();
  return out;
}

describe("log", () => {
  it("drops the query string of every field that names a place", () => {
    setEnv({ LOG_LEVEL: "debug" });
    const out = captured(() =>
      log("error", "request handler failed", {
        url: "/api/transfers?q=Smith%20John&dob=1980-02-03",
        route: "GET /x?y=1",
        path: "/p#frag",
        requestId: "r?1",
      }),
    );
    expect(out).toContain('"url":"/api/transfers"');
    expect(out).toContain('"route":"GET /x"');
    expect(out).toContain('"path":"/p"');
    expect(out).not.toMatch(/Smith|1980/);
    expect(out).toContain('"requestId":"r?1"');
  });

  it("redacts an error message passed as a field", () => {
    setEnv({ LOG_LEVEL: "debug" });
    const out = captured(() =>
      log("warn", "job queue connection lost", { error: 'invalid input syntax for type date: "1980-02-30"' }),
    );
    expect(out).not.toContain("1980");
  });
});

describe("withoutQuery", () => {
  it("keeps the path only", () => {
    expect(withoutQuery("/a/b?q=Smith#x")).toBe("/a/b");
    expect(withoutQuery("/a/b#x")).toBe("/a/b");
    expect(withoutQuery("/a/b")).toBe("/a/b");
  });
});

describe("redactMessage", () => {
  it.each([
    ['duplicate key value violates unique constraint "users_email_key"', "1"],
    ["Key (email)=(jane.doe@example.com) already exists.", "jane.doe"],
    ['invalid input syntax for type date: "1980-02-30"', "1980"],
    ["value too long for type character varying(10): 'SMITH JOHN'", "SMITH"],
    ["Unique constraint failed on the fields: (`rx_number`) value RX1234567", "1234567"],
    ["patient born 1980-02-03 with NPI 1245319599", "1245319599"],
  ])("takes the values out of %s", (message, secret) => {
    expect(redactMessage(message)).not.toContain(secret === "1" ? "users_email_key" : secret);
  });

  it("keeps what says what went wrong", () => {
    expect(redactMessage('duplicate key value violates unique constraint "x"')).toBe(
      'duplicate key value violates unique constraint "…"',
    );
  });
});

describe("errorFields", () => {
  it("keeps a database error's code and redacts its message and the stack's copy of it", () => {
    const err = Object.assign(new Error('Key (patient_last_name)=(Smith) violates "doe"'), {
      name: "DatabaseError",
      code: "23505",
    });
    const fields = errorFields(err);
    expect(fields).toMatchObject({ errorName: "DatabaseError", errorCode: "23505" });
    expect(JSON.stringify(fields)).not.toMatch(/Smith|doe/);
    expect(String(fields.stack)).toMatch(/\n\s+at /);
  });

  it("finds Prisma's P-codes and a driver adapter's SQLSTATE in the cause", () => {
    expect(errorFields(Object.assign(new Error("x"), { code: "P2002" })).errorCode).toBe("P2002");
    expect(errorFields(Object.assign(new Error("x"), { cause: { originalCode: "22008" } })).errorCode).toBe("22008");
    expect(errorFields(Object.assign(new Error("x"), { code: "ECONNRESET" })).errorCode).toBeUndefined();
  });
});
