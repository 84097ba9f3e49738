// The overview's figures against transfers with known timestamps, in a database of its own, with the clock
// pinned (Wednesday 2026-11-25 12:30 in Chicago, UTC-6) and the store's day in America/Chicago: the hours are
// local, the usual curve is the last 4 Wednesdays (one of them, 28 October, still on daylight time, UTC-5),
// a transfer at 23:30 the evening before is not today's, and the sender's 4-hour window decides what is
// pending-about-to-lapse and what counts as missing. The same figures come out read live (no rollups yet),
// through the worker's rollups after a worker stopped part-way and two more ran at once, and after a rebuild;
// a row written into a rolled-up day behind the rollup's back shows that the rollups are what is read.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { getOverview } from "@/lib/overview/get-overview";
import { rebuildOverviewRollups } from "@/lib/overview/rebuild-overview-rollups";
import { rollUpOverview } from "@/lib/overview/roll-up-overview";
import type { Overview } from "@/lib/overview/overview-views";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const NOW = new Date("2026-11-25T18:30:00Z");
const TZ = "America/Chicago";
const MIN = 60_000;

type Cb = { status: "PENDING" | "DELIVERED" | "FAILED" | "REFUSED"; attempts: number; deliveredAfterMin?: number };
type Row = {
  id: string;
  partner?: "prt_a" | "prt_b";
  received: string;
  /** Minutes from arrival to decision; none: still RECEIVED. */
  decidedAfterMin?: number;
  rejected?: string;
  callback?: Cb;
};

const ROWS: Row[] = [
  // today (local 2026-11-25)
  {
    id: "a1",
    received: "2026-11-25T14:10:00Z",
    decidedAfterMin: 30,
    callback: { status: "DELIVERED", attempts: 1, deliveredAfterMin: 1 },
  },
  {
    id: "a2",
    received: "2026-11-25T15:05:00Z",
    decidedAfterMin: 20,
    rejected: "RX_EXPIRED",
    callback: { status: "PENDING", attempts: 2 },
  },
  { id: "p1", received: "2026-11-25T18:00:00Z" },
  { id: "p2", received: "2026-11-25T15:00:00Z" },
  { id: "p3", received: "2026-11-25T14:00:00Z" },
  // 23:30 yesterday, local; decided 00:30 today
  {
    id: "n0",
    received: "2026-11-25T05:30:00Z",
    decidedAfterMin: 60,
    callback: { status: "DELIVERED", attempts: 1, deliveredAfterMin: 1 },
  },
  // the last four Wednesdays: 08:xx local (28 October is CDT, UTC-5), and two at 09:10 a week ago
  ...[
    "2026-11-18T14:20:00Z",
    "2026-11-11T14:30:00Z",
    "2026-11-04T14:30:00Z",
    "2026-10-28T13:30:00Z",
    "2026-11-18T15:10:00Z",
    "2026-11-18T15:10:00Z",
  ].map((received, i): Row => ({
    id: `w${i}`,
    received,
    decidedAfterMin: 10,
    callback: { status: "DELIVERED", attempts: 1, deliveredAfterMin: 1 },
  })),
  // missing for the sender: decided late; callback late; callback failed; callback refused (another partner)
  {
    id: "m1",
    received: "2026-11-20T16:00:00Z",
    decidedAfterMin: 300,
    rejected: "RX_EXPIRED",
    callback: { status: "DELIVERED", attempts: 1, deliveredAfterMin: 1 },
  },
  {
    id: "m2",
    received: "2026-11-21T16:00:00Z",
    decidedAfterMin: 30,
    callback: { status: "DELIVERED", attempts: 4, deliveredAfterMin: 270 },
  },
  { id: "m3", received: "2026-11-22T16:00:00Z", decidedAfterMin: 10, callback: { status: "FAILED", attempts: 9 } },
  {
    id: "r1",
    partner: "prt_b",
    received: "2026-11-23T16:00:00Z",
    decidedAfterMin: 5,
    callback: { status: "REFUSED", attempts: 1 },
  },
  // older than 30 days: in no figure
  {
    id: "old",
    received: "2026-10-20T14:00:00Z",
    decidedAfterMin: 10,
    callback: { status: "DELIVERED", attempts: 1, deliveredAfterMin: 1 },
  },
];

let o: Overview;

beforeAll(async () => {
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_overview");
  await disconnectDb();
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await db().$executeRaw`
    INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES
      ('prt_a', 'Alpha Pharmacy', '{}', 'https://a.example/cb', 'sealed'),
      ('prt_b', 'Bravo Pharmacy', '{}', 'https://b.example/cb', 'sealed')`;
  await db().$executeRaw`
    INSERT INTO users (id, email, name, password_hash, role) VALUES ('usr_o', 'o@test.example', 'O', 'x', 'pharmacist')`;
  for (const r of ROWS) {
    const received = new Date(r.received);
    const decided = r.decidedAfterMin === undefined ? null : new Date(received.getTime() + r.decidedAfterMin * MIN);
    const status = !decided ? "RECEIVED" : r.rejected ? "REJECTED" : "CONFIRMED";
    const partner = r.partner ?? "prt_a";
    await db().$executeRaw`
      INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
        patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
        has_allergies, received_at, decided_at, request, response, response_id)
      VALUES (${r.id}, ${partner}, ${r.id}, 'h', ${status}::"TransferStatus", 'A', 'B', 'b a', '1970-01-01',
        '1843501234', 'S', '1245319599', ${r.id}, 'Drug', '10 mg', false, ${received}, ${decided},
        '{}'::jsonb, '{}'::jsonb, ${r.id})`;
    if (!decided) continue;
    await db().$executeRaw`
      INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, response)
      VALUES (${r.id}, ${r.rejected ? "REJECTED" : "APPROVED"}::"Decision", 'usr_o', 'O', ${decided}, ${r.rejected ?? null},
        '{}'::jsonb)`;
    if (!r.callback) continue;
    const delivered =
      r.callback.deliveredAfterMin === undefined
        ? null
        : new Date(decided.getTime() + r.callback.deliveredAfterMin * MIN);
    await db().$executeRaw`
      INSERT INTO callbacks (id, transfer_id, partner_id, payload, status, attempt_count, delivered_at, created_at)
      VALUES (${`cb_${r.id}`}, ${r.id}, ${partner}, '{}'::jsonb, ${r.callback.status}::"CallbackStatus",
        ${r.callback.attempts}, ${delivered}, ${decided})`;
  }
  await db().$executeRaw`
    INSERT INTO partner_answer_counts (partner_id, minute, answers, failures, client_errors) VALUES
      ('prt_a', '2026-11-25T18:00:00Z', 10, 6, 1), ('prt_a', '2026-11-25T17:00:00Z', 100, 0, 0)`;
  // Immediate confirmation: one at 11:00 today waiting, one from 05:00 waiting past the 4-hour limit, one
  // from yesterday that a pharmacist verified.
  await db().$executeRaw`
    INSERT INTO immediate_confirm_policies (store_id, version, enabled) VALUES ('sto_o', 1, true)`;
  await db().$executeRaw`
    INSERT INTO immediate_confirmations (transfer_id, store_id, policy_version, owner_name, confirmed_at, verified_at)
    VALUES ('i1', 'sto_o', 1, 'O', '2026-11-25T17:00:00Z', NULL),
           ('i2', 'sto_o', 1, 'O', '2026-11-25T11:00:00Z', NULL),
           ('i3', 'sto_o', 1, 'O', '2026-11-24T17:00:00Z', '2026-11-24T18:00:00Z')`;
  o = await getOverview({ now: NOW, withPartners: true, timeZone: TZ });
});

afterAll(async () => {
  await disconnectDb();
});

const hours = (rows: { hour: number }[], pick: (r: never) => number) =>
  Object.fromEntries(rows.map((r) => [r.hour, pick(r as never)]).filter(([, v]) => v !== 0));

describe("the overview at a pinned clock in America/Chicago", () => {
  it("counts today's arrivals and the usual Wednesday by local hour", () => {
    expect(o.today.date).toBe("2026-11-25");
    expect(o.today.hour).toBe(12);
    expect(hours(o.today.arrivals, (r: { today: number }) => r.today)).toEqual({ 8: 2, 9: 2, 12: 1 });
    expect(hours(o.today.arrivals, (r: { usual: number }) => r.usual)).toEqual({ 8: 1, 9: 0.5 });
  });

  it("bands what is pending against the sender's 4-hour window", () => {
    expect(o.today.pendingByAge).toEqual([
      { band: "0-1h", count: 1 },
      { band: "1-2h", count: 0 },
      { band: "2-3h", count: 0 },
      { band: "3-4h", count: 1 },
      { band: "4h+", count: 1 },
    ]);
    expect(o.today.lapsingWithinHour).toBe(1);
  });

  it("counts today's decisions by local hour", () => {
    expect(hours(o.today.decisions, (r: { approved: number }) => r.approved)).toEqual({ 0: 1, 8: 1 });
    expect(hours(o.today.decisions, (r: { rejected: number }) => r.rejected)).toEqual({ 9: 1 });
  });

  it("gives 30 local days of time to decision and what the sender missed", () => {
    expect(o.last30Days.days).toHaveLength(30);
    expect(o.last30Days.days[0]!.date).toBe("2026-10-27");
    const day = (d: string) => o.last30Days.days.find((x) => x.date === d)!;
    expect(day("2026-11-25")).toEqual({
      date: "2026-11-25",
      decided: 3,
      medianMinutes: 30,
      p90Minutes: 54,
      missing: 1,
    });
    expect(day("2026-11-18")).toMatchObject({ decided: 3, medianMinutes: 10, p90Minutes: 10, missing: 0 });
    expect(day("2026-10-28")).toMatchObject({ decided: 1, medianMinutes: 10 });
    expect(day("2026-11-20")).toMatchObject({ decided: 1, medianMinutes: 300, missing: 1 });
    expect(day("2026-11-24")).toMatchObject({ decided: 0, medianMinutes: null, missing: 0 });
    const missing = Object.fromEntries(o.last30Days.days.filter((d) => d.missing).map((d) => [d.date, d.missing]));
    expect(missing).toEqual({ "2026-11-20": 1, "2026-11-21": 1, "2026-11-22": 1, "2026-11-23": 1, "2026-11-25": 1 });
    expect(o.last30Days.outcomes).toEqual([
      { decision: "APPROVED", errorType: null, count: 11 },
      { decision: "REJECTED", errorType: "RX_EXPIRED", count: 2 },
    ]);
  });

  it("gives each partner's callbacks by state, their delay and the last hour's failure rate", () => {
    expect(o.partners).toEqual([
      {
        partnerId: "prt_a",
        name: "Alpha Pharmacy",
        delivered: 10,
        pending: 0,
        retrying: 1,
        failed: 1,
        refused: 0,
        medianDelayMinutes: 1,
        p90DelayMinutes: 27.9,
        failureRate: 0.6,
        answersLastHour: 10,
        failureCutoff: 0.5,
      },
      {
        partnerId: "prt_b",
        name: "Bravo Pharmacy",
        delivered: 0,
        pending: 0,
        retrying: 0,
        failed: 0,
        refused: 1,
        medianDelayMinutes: null,
        p90DelayMinutes: null,
        failureRate: null,
        answersLastHour: 0,
        failureCutoff: 0.5,
      },
    ]);
  });

  it("counts the transfers confirmed at once and those waiting for a countersign", () => {
    expect(o.immediateConfirmation).toEqual({
      enabled: true,
      confirmedToday: 2,
      waitingForCountersign: 2,
      overdue: 1,
    });
  });

  it("leaves the partners out of a pharmacist's overview", async () => {
    const p = await getOverview({ now: NOW, withPartners: false, timeZone: TZ });
    expect(p.partners).toBeUndefined();
    expect(p.today).toEqual(o.today);
  });
});

describe("the same overview through the worker's rollups", () => {
  const overview = () => getOverview({ now: NOW, withPartners: true, timeZone: TZ });

  it("gives the same figures after a worker stopped part-way, and after two more ran at once", async () => {
    const first = await rollUpOverview({ now: NOW, timeZone: TZ, maxDays: 10 });
    expect(first.daysRolledUp).toHaveLength(10);
    expect(first.completeThrough).toBe("2026-11-05");
    expect(await overview()).toEqual(o);

    // A restarted worker and a second one, at once: the days are split between them, none rolled up twice.
    const [a, b] = await Promise.all([
      rollUpOverview({ now: NOW, timeZone: TZ }),
      rollUpOverview({ now: NOW, timeZone: TZ }),
    ]);
    const days = [...a.daysRolledUp, ...b.daysRolledUp].sort();
    expect(new Set(days).size).toBe(days.length);
    expect(days[0]).toBe("2026-11-06");
    // Yesterday closed at 04:05 today (the 4-hour window and a margin): today is read live.
    expect(days.at(-1)).toBe("2026-11-24");
    expect(await overview()).toEqual(o);

    // Again: nothing left to roll up, the callbacks recounted, nothing counted twice.
    const again = await rollUpOverview({ now: NOW, timeZone: TZ });
    expect(again.daysRolledUp).toEqual([]);
    expect(again.callbacksSwept).toBe(true);
    expect(await overview()).toEqual(o);
  });

  it("reads closed days from the rollups, picks up later callback states, and rebuilds on demand", async () => {
    // Written behind the rollups' back into a rolled-up day (decided 5 h after arrival: missing for the sender):
    // not seen until the rollups are rebuilt.
    await db().$executeRaw`
      INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
        patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
        has_allergies, received_at, decided_at, request, response, response_id)
      VALUES ('late', 'prt_a', 'late', 'h', 'CONFIRMED', 'A', 'B', 'b a', '1970-01-01', '1843501234', 'S', '1245319599',
        'late', 'Drug', '10 mg', false, '2026-11-12T16:00:00Z', '2026-11-12T21:00:00Z', '{}'::jsonb, '{}'::jsonb,
        'late')`;
    // The refused callback redelivered since its day was rolled up.
    await db().$executeRaw`
      UPDATE callbacks SET status = 'DELIVERED', delivered_at = created_at + interval '3 minutes'
       WHERE id = 'cb_r1'`;
    const stale = await overview();
    expect(stale.last30Days.days.find((d) => d.date === "2026-11-12")!.missing).toBe(0);
    expect(stale.partners!.find((p) => p.partnerId === "prt_b")).toMatchObject({ delivered: 0, refused: 1 });

    await rollUpOverview({ now: NOW, timeZone: TZ, sweepCallbacksEveryMs: 0 });
    const swept = await overview();
    expect(swept.partners!.find((p) => p.partnerId === "prt_b")).toMatchObject({
      delivered: 1,
      refused: 0,
      medianDelayMinutes: 3,
    });
    expect(swept.last30Days.days.find((d) => d.date === "2026-11-12")!.missing).toBe(0);

    const rebuilt = await rebuildOverviewRollups({ now: NOW, timeZone: TZ });
    expect(rebuilt.completeThrough).toBe("2026-11-24");
    expect(rebuilt.daysRolledUp).toHaveLength(30 - 1);
    const fresh = await overview();
    expect(fresh.last30Days.days.find((d) => d.date === "2026-11-12")!.missing).toBe(1);
    expect(fresh.today).toEqual(o.today);
  });
});
