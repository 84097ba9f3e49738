import { afterEach, describe, expect, it } from "vitest";
import { lockoutSeconds } from "@/lib/auth/attempt-sign-in";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { activityResolutionMs, sessionEnded, sessionIdleMs } from "@/lib/auth/session-claims";
import { setEnv } from "@/lib/env";
import { classifySearch, parseDob } from "@/lib/transfers/queue";

afterEach(() =>
  setEnv({
    SESSION_IDLE_MINUTES: "",
    SESSION_MAX_HOURS: "",
    SIGNIN_LOCKOUT_THRESHOLD: "",
    SIGNIN_LOCKOUT_BASE_SECONDS: "",
    SIGNIN_LOCKOUT_MAX_SECONDS: "",
  }),
);

describe("lockout backoff", () => {
  it("locks for a minute at the fifth failure and doubles after, up to an hour", () => {
    expect([1, 2, 3, 4].map(lockoutSeconds)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11].map(lockoutSeconds)).toEqual([60, 120, 240, 480, 960, 1920, 3600]);
    expect(lockoutSeconds(500)).toBe(3600);
  });

  it("follows the settings", () => {
    setEnv({ SIGNIN_LOCKOUT_THRESHOLD: "3", SIGNIN_LOCKOUT_BASE_SECONDS: "10", SIGNIN_LOCKOUT_MAX_SECONDS: "30" });
    expect([2, 3, 4, 5, 6].map(lockoutSeconds)).toEqual([0, 10, 20, 30, 30]);
  });
});

describe("session end", () => {
  it("idles out after SESSION_IDLE_MINUTES and expires after SESSION_MAX_HOURS", () => {
    const now = Date.now();
    expect(sessionIdleMs()).toBe(15 * 60_000);
    expect(sessionEnded({ act: now - 14 * 60_000, sia: now - 60 * 60_000 }, now)).toBeNull();
    expect(sessionEnded({ act: now - 15 * 60_000, sia: now - 60 * 60_000 }, now)).toBe("idle");
    expect(sessionEnded({ act: now, sia: now - 12 * 3_600_000 }, now)).toBe("expired");
    setEnv({ SESSION_IDLE_MINUTES: "0.5" });
    expect(sessionIdleMs()).toBe(30_000);
    expect(sessionEnded({ act: now - 31_000, sia: now - 31_000 }, now)).toBe("idle");
    expect(activityResolutionMs()).toBeLessThan(30_000 / 4);
  });
});

describe("after sign-in", () => {
  it("goes back only to a path of this site, never to an API route or another origin", () => {
    expect(safeCallbackPath("/transfers/trf_1")).toBe("/transfers/trf_1");
    expect(safeCallbackPath("/transfers?q=x")).toBe("/transfers?q=x");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil",
      "/api/transfers",
      "/login?x",
      undefined,
      42,
    ]) {
      expect(safeCallbackPath(bad)).toBe("/transfers");
    }
  });
});

describe("queue search", () => {
  it("reads dates of birth in both forms, real dates only", () => {
    expect(parseDob("1958-03-14")).toBe("1958-03-14");
    expect(parseDob("3/14/1958")).toBe("1958-03-14");
    expect(parseDob("02/30/1990")).toBeNull();
    expect(parseDob("1990-13-01")).toBeNull();
    expect(parseDob("Alvarez")).toBeNull();
  });

  it("tells a referenceID, a date of birth and a name or rxNumber apart", () => {
    expect(classifySearch("trf_000VbhxrnBORvhc75fZA1q").kind).toBe("referenceID");
    expect(classifySearch("03/14/1958").kind).toBe("dateOfBirth");
    expect(classifySearch("Alvarez, Maria").kind).toBe("nameOrRxNumber");
    expect(classifySearch("Alvarez, Maria")).toMatchObject({ namePrefix: "alvarez maria%" });
    expect(classifySearch("maria alvarez")).toMatchObject({ reversedNamePrefix: "alvarez maria%" });
    expect(classifySearch("50%_off")).toMatchObject({ namePrefix: "50\\%\\_off%" });
  });
});
