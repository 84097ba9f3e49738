// The transfer log's totals (on screen and the export's audited row count) against a direct count over the
// decisions, against real PostgreSQL: the totals read whole UTC hours from transfer_decision_hours, kept by
// triggers, and the partial hours at a period's ends from the decisions themselves. Decisions are placed
// around the store's local midnight (and a half-hour zone's, whose midnights are not UTC hours): one a
// millisecond before, one on it, one after, today's, and one whose transfer's schedule is filled in later.
// And the log's schedule column, filter and sort over its three cases: no schedule, the decision's, the intake's.
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { approveTransfer } from "@/lib/transfers/decision";
import { exportTransfers, listDecidedTransfers, parseDecidedTransfersQuery } from "@/lib/transfers/record";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
/** The store's time zone, and one whose midnight is half past a UTC hour. */
const ZONES = ["America/New_York", "Asia/Kolkata"] as const;
const OUTCOMES = ["approved", "rejected", "any"] as const;
const SCHEDULES = ["all", "any", "II", "IV"] as const;

let partner: CreatedPartner;
let pharmacist: TestUser;
let rescheduled = "";

async function receive(medicationName: string): Promise<string> {
  const request = freshRequest((r) => {
    r.prescription.medicationName = medicationName;
  });
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

/** Local midnights of `zone`, `days` from today's (0: today's), as instants. */
async function midnight(zone: string, days: number): Promise<Date> {
  const [row] = await db().$queryRaw<{ at: Date }[]>`
    SELECT ((date_trunc('day', now() AT TIME ZONE ${zone}) + make_interval(days => ${days}::int)) AT TIME ZONE ${zone}) AS at`;
  return row!.at;
}

/** A decision written at `at`, as the decision's transaction writes it (decisions are append-only). */
async function decideAt(opts: { at: Date; decision: "APPROVED" | "REJECTED"; schedule: string | null; drug: string }) {
  const id = await receive(opts.drug);
  await db().$executeRaw`
    INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, drug_schedule, response)
    VALUES (${id}, ${opts.decision}::"Decision", ${pharmacist.id}, ${pharmacist.name}, ${opts.at},
            ${opts.decision === "REJECTED" ? "INVALID_INFO" : null}, ${opts.schedule}, '{}'::jsonb)`;
  return id;
}

/** The count the log must show, straight from the decisions and their transfers. */
async function directCount(from: Date, to: Date, outcome: string, schedule: string): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n
      FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id
     WHERE d.decided_at >= ${from} AND d.decided_at < ${to}
       AND (${outcome} = 'any' OR d.decision::text = upper(${outcome}))
       AND (${schedule} = 'all'
            OR (${schedule} = 'any' AND coalesce(substr(d.drug_schedule, 2), t.drug_schedule) IN ('II', 'III', 'IV', 'V'))
            OR coalesce(substr(d.drug_schedule, 2), t.drug_schedule) = ${schedule})`;
  return row!.n;
}

async function logTotals(from: Date, to: Date, outcome: string, schedule: string) {
  const raw = { from: from.toISOString(), to: to.toISOString(), outcome, schedule };
  const query = parseDecidedTransfersQuery(raw);
  const [page, exported] = await Promise.all([
    listDecidedTransfers(query, SYSTEM_ACTOR),
    exportTransfers(query.filters, SYSTEM_ACTOR),
  ]);
  await exported.lines.return(undefined);
  return { onScreen: page.total, exported: exported.rows };
}

beforeAll(async () => {
  partner = await createTestPartner("Log counts");
  pharmacist = await createTestUser("pharmacist", "Lena Counts, PharmD");
  const tick = 1;
  for (const zone of ZONES) {
    const today = await midnight(zone, 0);
    const at = (ms: number) => new Date(today.getTime() + ms);
    await decideAt({ at: at(-tick), decision: "APPROVED", schedule: "CII", drug: "Oxycodone" });
    await decideAt({ at: at(0), decision: "APPROVED", schedule: null, drug: "Zolpidem Tartrate" });
    await decideAt({ at: at(tick), decision: "REJECTED", schedule: null, drug: "Atorvastatin Calcium" });
    await decideAt({ at: at(-36 * 3_600_000 - 17), decision: "REJECTED", schedule: null, drug: "Zolpidem Tartrate" });
    await decideAt({ at: at(-3 * 86_400_000 + 1234), decision: "APPROVED", schedule: "CIV", drug: "Alprazolam" });
  }
  // A decision whose schedule is the transfer's, which classification fills in after the decision.
  rescheduled = await decideAt({
    at: new Date((await midnight(ZONES[0], -1)).getTime() + 5 * 3_600_000 + 250),
    decision: "APPROVED",
    schedule: null,
    drug: "Atorvastatin Calcium",
  });
  await db().$executeRaw`UPDATE transfers SET drug_schedule = NULL WHERE id = ${rescheduled}`;
  await db().$executeRaw`UPDATE transfers SET drug_schedule = 'II' WHERE id = ${rescheduled}`;
  // Today's, decided the way a pharmacist does.
  const id = await receive("Zolpidem Tartrate");
  await approveTransfer({
    transferId: id,
    actor: { id: pharmacist.id, email: pharmacist.email, name: pharmacist.name, role: pharmacist.role },
    clientAddress: null,
    approval: { oneTimeTransferConfirmed: true },
  });
});

describe("the transfer log's totals", () => {
  it("has decisions on both sides of each zone's midnight and on it", async () => {
    for (const zone of ZONES) {
      const today = await midnight(zone, 0);
      const ms = (n: number) => new Date(today.getTime() + n);
      expect(await directCount(ms(-1), today, "any", "all"), `${zone}: the last millisecond of yesterday`).toBe(1);
      expect(await directCount(today, ms(1), "any", "all"), `${zone}: midnight itself`).toBe(1);
    }
    const [row] = await db().$queryRaw<
      { s: string | null }[]
    >`SELECT drug_schedule AS s FROM transfers WHERE id = ${rescheduled}`;
    expect(row!.s).toBe("II");
  });

  it("equal a direct count over the decisions for the store's days, across a midnight, with today's", async () => {
    const now = new Date();
    for (const zone of ZONES) {
      const periods: [string, Date, Date][] = [
        ["yesterday", await midnight(zone, -1), await midnight(zone, 0)],
        ["today", await midnight(zone, 0), await midnight(zone, 1)],
        ["yesterday and today", await midnight(zone, -1), await midnight(zone, 1)],
        ["the last 7 days", await midnight(zone, -6), await midnight(zone, 1)],
        ["the last 40 days", await midnight(zone, -39), await midnight(zone, 1)],
        ["the last 2 hours, on no hour", new Date(now.getTime() - 7_200_000 - 333), new Date(now.getTime() + 60_000)],
      ];
      for (const [name, from, to] of periods)
        for (const outcome of OUTCOMES)
          for (const schedule of SCHEDULES) {
            const expected = await directCount(from, to, outcome, schedule);
            const got = await logTotals(from, to, outcome, schedule);
            expect(got, `${zone}, ${name}, ${outcome}, ${schedule}`).toEqual({
              onScreen: expected,
              exported: expected,
            });
          }
    }
  });
});

describe("the transfer log's schedule", () => {
  it("is the decision's without its C, else the intake's, else none: shown, filtered and sorted (none last)", async () => {
    // A quarter-hour of its own, long ago, so no other decision of the run falls in it.
    const start = new Date("2024-03-05T07:00:00Z");
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    // A transfer not classified (yet): no schedule anywhere.
    const unclassified = await decideAt({
      at: at(1),
      decision: "REJECTED",
      schedule: null,
      drug: "Atorvastatin Calcium",
    });
    await db().$executeRaw`UPDATE transfers SET drug_schedule = NULL WHERE id = ${unclassified}`;
    // Known and not controlled: the intake recorded "none", shown as it is stored.
    const notControlled = await decideAt({
      at: at(2),
      decision: "REJECTED",
      schedule: null,
      drug: "Atorvastatin Calcium",
    });
    // Zolpidem is C-IV at intake: the decision's C-II is the one shown.
    const decided = await decideAt({ at: at(3), decision: "APPROVED", schedule: "CII", drug: "Zolpidem Tartrate" });
    const intakeOnly = await decideAt({ at: at(4), decision: "REJECTED", schedule: null, drug: "Zolpidem Tartrate" });
    const ids = [unclassified, notControlled, decided, intakeOnly];
    const intake = await db().$queryRaw<{ id: string; s: string | null }[]>`
      SELECT id, drug_schedule AS s FROM transfers WHERE id = ANY(${ids})`;
    expect(Object.fromEntries(intake.map((r) => [r.id, r.s]))).toEqual({
      [unclassified]: null,
      [notControlled]: "none",
      [decided]: "IV",
      [intakeOnly]: "IV",
    });

    const log = async (raw: Record<string, string>) => {
      const period = { from: at(0).toISOString(), to: at(15).toISOString(), outcome: "any" };
      const page = await listDecidedTransfers(parseDecidedTransfersQuery({ ...period, ...raw }), SYSTEM_ACTOR);
      return page.rows.map((r) => [r.referenceID, r.schedule]);
    };
    expect(await log({ sort: "schedule", dir: "asc" })).toEqual([
      [decided, "II"],
      [intakeOnly, "IV"],
      [notControlled, "none"],
      [unclassified, null],
    ]);
    expect(await log({ sort: "schedule", dir: "desc" })).toEqual([
      [notControlled, "none"],
      [intakeOnly, "IV"],
      [decided, "II"],
      [unclassified, null],
    ]);
    expect(await log({ sort: "decidedAt", dir: "asc" })).toEqual([
      [unclassified, null],
      [notControlled, "none"],
      [decided, "II"],
      [intakeOnly, "IV"],
    ]);
    expect(await log({ schedule: "II" })).toEqual([[decided, "II"]]);
    expect(await log({ schedule: "IV" })).toEqual([[intakeOnly, "IV"]]);
    expect(await log({ schedule: "any", sort: "decidedAt", dir: "asc" })).toEqual([
      [decided, "II"],
      [intakeOnly, "IV"],
    ]);
  });
});
