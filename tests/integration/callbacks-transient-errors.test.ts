// A transient database error in a delivery job (a dropped connection, a serialization failure, a deadlock)
// delays its callback by a few milliseconds, not by graphile-worker's backoff. A job that throws is retried
// by graphile-worker exp(attempts) seconds later (2.7 s, then 7.4 s), and every job gathered into the same
// drain (lib/callbacks/drain-gatherer.ts) with it. A callback whose attempt was claimed but whose answer
// could not be written waited for its lease to run out (CALLBACK_TIMEOUT_MS + 5 s) and was then sent again.
//
// The errors are PostgreSQL's own, raised once by a trigger in the worker's statement: the claim's insert of
// the attempt row, or the success's update of the callback. The worker is a separate `npm run worker` with
// its default poll interval, as an operator runs it.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { drainCallbacks } from "@/lib/callbacks/drain-callbacks";
import { db } from "@/lib/db/prisma";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  callbackRow,
  createCallbackPartner,
  decideTransfer,
  ownCallbackDatabase,
  startWorkerProcess,
  runnableJobs,
  waitUntil,
  type WorkerProcess,
} from "./callbacks-fixtures";

/** Well inside graphile-worker's first retry (2.7 s) and the attempt's lease. */
const PROMPT_MS = 1500;

connectTestEnvironment();
const own = ownCallbackDatabase("rx_callbacks_transient");
const authSecret = inject("authSecret");
let worker: WorkerProcess;

/**
 * Arms a fault that fires in the first statement(s) to reach the trigger after this call, and only there:
 * `terminate` ends that statement's own connection (as a restart or a failover does), any other value is
 * the SQLSTATE raised.
 */
async function armFault(opts: {
  table: string;
  when: string;
  condition?: string;
  fault: string;
  /** How many statements it fails (the first to reach it). */
  times?: number;
}): Promise<void> {
  await db().$executeRawUnsafe(`ALTER SEQUENCE test_fault_count RESTART`);
  await db().$executeRawUnsafe(
    `CREATE TRIGGER test_fault BEFORE ${opts.when} ON ${opts.table} FOR EACH ROW
       ${opts.condition ? `WHEN (${opts.condition})` : ""} EXECUTE FUNCTION test_fault('${opts.fault}', '${opts.times ?? 1}')`,
  );
}

/** How many rows reached the armed trigger (the faulted ones and those after). */
async function triggerRuns(): Promise<number> {
  const rows = await db().$queryRawUnsafe<{ n: number }[]>(
    `SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::int AS n FROM test_fault_count`,
  );
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  await db().$executeRawUnsafe(`CREATE SEQUENCE test_fault_count`);
  await db().$executeRawUnsafe(`
    CREATE FUNCTION test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('test_fault_count') <= TG_ARGV[1]::int THEN
        IF TG_ARGV[0] = 'terminate' THEN
          PERFORM pg_terminate_backend(pg_backend_pid());
          PERFORM pg_sleep(5);
        ELSE
          RAISE EXCEPTION 'injected transient error' USING ERRCODE = TG_ARGV[0];
        END IF;
      END IF;
      RETURN NEW;
    END $$`);
  worker = await startWorkerProcess({ databaseUrl: own.databaseUrl, authSecret });
  // Warm: the first callback also waits for the worker's first fetch.
  const partner = await createCallbackPartner(`${own.receiver.baseUrl}/warm`);
  await decideTransfer({ partner, decision: "CONFIRMED" });
  await own.receiver.waitFor("/warm", 1, 30_000);
});

afterEach(async () => {
  for (const table of ["callback_attempts", "callbacks"])
    await db().$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_fault ON ${table}`);
});

afterAll(async () => {
  await worker?.stop();
});

describe("a transient database error while a callback is claimed", () => {
  it.each([
    ["the connection is dropped", "terminate"],
    ["a serialization failure", "40001"],
  ])("%s: the callback is still sent at once, once", async (_, fault) => {
    const path = `/claim-${fault}`;
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}${path}`);
    await armFault({ table: "callback_attempts", when: "INSERT", fault });
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });

    const [arrived] = await own.receiver.waitFor(path, 1, 30_000);
    expect(await triggerRuns()).toBeGreaterThanOrEqual(2);
    expect(arrived!.at - decided.committedAt).toBeLessThan(PROMPT_MS);
    await waitUntil("delivered", async () => (await callbackRow(decided.callbackId)).status === "DELIVERED", 5_000);
    const row = await callbackRow(decided.callbackId);
    expect(row.attempts).toHaveLength(1);
    expect(own.receiver.requests(path)).toHaveLength(1);
  });
});

describe("a transient database error while a delivered callback is recorded", () => {
  it("is recorded as delivered at once, and never sent again", async () => {
    const path = "/record-deadlock";
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}${path}`);
    // After the POST: the claim's own update of the row (its lease) leaves it PENDING.
    await armFault({
      table: "callbacks",
      when: "UPDATE",
      condition: "NEW.status = 'DELIVERED' AND OLD.status <> 'DELIVERED'",
      fault: "40P01",
    });
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });

    const delivered = await waitUntil(
      "delivered",
      async () => {
        const row = await callbackRow(decided.callbackId);
        return row.status === "DELIVERED" ? row : null;
      },
      30_000,
      25,
    );
    expect(await triggerRuns()).toBeGreaterThanOrEqual(2);
    expect(delivered.deliveredAt!.getTime() - decided.committedAt).toBeLessThan(PROMPT_MS);
    expect(delivered.attempts).toHaveLength(1);
    expect(own.receiver.requests(path)).toHaveLength(1);
    // Nothing is left to send it a second time.
    expect(await runnableJobs(decided.callbackId)).toBe(0);
  });
});

describe("a gathered drain whose one partner's record keeps failing (in this process, the worker stopped)", () => {
  beforeAll(async () => {
    await worker.stop();
  });

  it("fails that partner's callbacks alone: the other partner's are delivered and recorded", async () => {
    const stuck = await createCallbackPartner(`${own.receiver.baseUrl}/group-stuck`);
    const fine = await createCallbackPartner(`${own.receiver.baseUrl}/group-fine`);
    const a = await decideTransfer({ partner: stuck, decision: "CONFIRMED" });
    const b = await decideTransfer({ partner: fine, decision: "CONFIRMED" });
    // Every run of the stuck partner's success record fails: more than the retries.
    await armFault({
      table: "callbacks",
      when: "UPDATE",
      condition: `NEW.status = 'DELIVERED' AND NEW.partner_id = '${stuck.partnerId}'`,
      fault: "40P01",
      times: 100,
    });

    const { outcomes, failed } = await drainCallbacks({ callbackIds: [a.callbackId, b.callbackId], batchSize: 32 });
    expect(outcomes.get(b.callbackId)).toBe("delivered");
    expect((await callbackRow(b.callbackId)).status).toBe("DELIVERED");
    expect([...failed.keys()]).toEqual([a.callbackId]);
    // Four runs of the stuck record: the first and three more.
    expect(await triggerRuns()).toBe(4);
    // Its POST went out; its job waits for the lease's end to try again.
    expect(own.receiver.requests("/group-stuck")).toHaveLength(1);
    expect((await callbackRow(a.callbackId)).status).toBe("PENDING");
    expect(await runnableJobs(a.callbackId)).toBe(1);
  });

  it("an answer recorded in a Prisma transaction (410 Gone) whose connection is dropped is recorded again", async () => {
    own.receiver.script("/gone", [{ status: 410 }]);
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/gone`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    await armFault({ table: "callbacks", when: "UPDATE", condition: "NEW.status = 'GONE'", fault: "terminate" });

    const { outcomes, failed } = await drainCallbacks({ callbackIds: [decided.callbackId], batchSize: 32 });
    expect(await triggerRuns()).toBe(2);
    expect(failed.size).toBe(0);
    expect(outcomes.get(decided.callbackId)).toBe("gone");
    expect((await callbackRow(decided.callbackId)).status).toBe("GONE");
    expect(own.receiver.requests("/gone")).toHaveLength(1);
  });

  it("one delivery at a time (batch size 1): a claim that meets a serialization failure is made again", async () => {
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/single`);
    const decided = await decideTransfer({ partner, decision: "CONFIRMED" });
    await armFault({ table: "callback_attempts", when: "INSERT", fault: "40001" });

    const { outcomes, failed } = await drainCallbacks({ callbackIds: [decided.callbackId], batchSize: 1 });
    // The faulted claim and the one made again.
    expect(await triggerRuns()).toBe(2);
    expect(outcomes.get(decided.callbackId)).toBe("delivered");
    expect(failed.size).toBe(0);
    expect(own.receiver.requests("/single")).toHaveLength(1);
  });
});
