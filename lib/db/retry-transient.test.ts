import { beforeAll, describe, expect, it } from "vitest";
import { setEnv } from "@/lib/env";
import { retryTransient } from "./retry-transient";

beforeAll(() => setEnv({ LOG_LEVEL: "error" }));

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

/** Work that fails with each of `errors` in turn, then answers "done"; counts its runs. */
function failing(errors: Error[]) {
  const work = {
    runs: 0,
    run: async () => {
      const err = errors[work.runs++];
      if (err) throw err;
      return "done";
    },
  };
  return work;
}

describe("retryTransient", () => {
  it("runs the work again after each transient failure, at once", async () => {
    const work = failing([pgError("40P01"), pgError("40001"), new Error("Connection terminated unexpectedly")]);
    const started = Date.now();
    expect(await retryTransient(work.run, { what: "test", delaysMs: [1, 1, 1] })).toBe("done");
    expect(work.runs).toBe(4);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("throws any other error at once", async () => {
    const work = failing([pgError("23505")]);
    await expect(retryTransient(work.run, { what: "test", delaysMs: [1, 1, 1] })).rejects.toThrow("pg 23505");
    expect(work.runs).toBe(1);
  });

  it("throws the last transient error once its pauses are used up", async () => {
    const work = failing([pgError("40001"), pgError("40001"), pgError("57014")]);
    await expect(retryTransient(work.run, { what: "test", delaysMs: [1, 1] })).rejects.toThrow("pg 57014");
    expect(work.runs).toBe(3);
  });
});
