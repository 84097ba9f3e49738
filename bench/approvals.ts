// Approvals at concurrency 4: the decision's whole transaction (lock the transfer, the store's
// rules, the decision row, the callback job, the audit record, the feed entry), through the same
// approveTransfer the dashboard calls, with no worker running so that delivery does not share the cores.
// Rounds alternate between AUDIT_CHAINS=1 (one chain behind one lock: the audit log before partitioning)
// and the configured chains, so both are measured in the same run.
//
// Besides the rate, the figures that a loaded machine does not distort (perf notes): statements per
// approval (pg_stat_statements, top level: one per round trip, BEGIN and COMMIT included), CPU ms per
// approval of this process and of PostgreSQL's process tree (/proc), the load average, and the
// per-statement profile (calls, mean and total time) of the configured side.
import os from "node:os";
import { readFileSync } from "node:fs";
import type { SessionUser } from "@/lib/auth/require-user";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db } from "@/lib/db/prisma";
import { env, setEnv } from "@/lib/env";
import { approveTransfer } from "@/lib/transfers/decision";
import { pendingTransfers, pool } from "./callbacks-support";
import { percentile, processTreeCpuMs, progress } from "./support";

type Side = {
  approvalsPerSecond: number;
  p50: number;
  p95: number;
  statementsPerApproval: number | null;
  benchCpuMsPerApproval: number;
  postgresCpuMsPerApproval: number;
};
type StatementProfile = { query: string; callsPerApproval: number; meanMs: number; totalMsPerApproval: number };
export type ApprovalsResult = {
  concurrency: number;
  chains: number;
  single: Side;
  chained: Side;
  ratio: number;
  rounds: number;
  count: number;
  loadAverage: { min: number; max: number };
  /** The configured side's statements, most total time first; null when pg_stat_statements is not available. */
  statements: StatementProfile[] | null;
};

type StatRow = { queryid: bigint; query: string; calls: bigint; total: number };
type Tally = {
  rates: number[];
  times: number[];
  count: number;
  benchCpuMs: number;
  postgresCpuMs: number;
  statements: number | null;
  byQuery: Map<bigint, { query: string; calls: number; total: number }>;
};

/** pg_stat_statements in the bench database when the server preloads it (the embedded one does); else false. */
async function enableStatementStats(): Promise<boolean> {
  try {
    await db().$executeRaw`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    await db().$queryRaw`SELECT pg_stat_statements_reset()`;
    return true;
  } catch {
    return false; // not preloaded, or not allowed (an external DATABASE_URL): the rates are still measured
  }
}

async function readStatementStats(): Promise<StatRow[]> {
  return db().$queryRaw<StatRow[]>`
    SELECT s.queryid, s.query, s.calls, s.total_exec_time AS total
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%'`;
}

/** The postmaster's pid: the parent of this connection's backend. */
async function postmasterPid(): Promise<number> {
  const [row] = await db().$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const stat = readFileSync(`/proc/${row!.pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function round(
  opts: {
    partnerId: string;
    pharmacyNpi: string;
    actor: SessionUser;
    count: number;
    concurrency: number;
    stats: boolean;
    postmaster: number;
  },
  tally?: Tally,
): Promise<number> {
  const ids = await pendingTransfers(opts.partnerId, opts.pharmacyNpi, opts.count);
  if (opts.stats) await db().$queryRaw`SELECT pg_stat_statements_reset()`;
  const cpuBefore = process.cpuUsage();
  const pgBefore = processTreeCpuMs(opts.postmaster);
  const times: number[] = [];
  const started = performance.now();
  await pool(ids, opts.concurrency, async (id) => {
    const t = performance.now();
    await approveTransfer({
      transferId: id,
      actor: opts.actor,
      clientAddress: "127.0.0.1",
      approval: { oneTimeTransferConfirmed: true },
    });
    times.push(performance.now() - t);
  });
  const rate = opts.count / ((performance.now() - started) / 1000);
  if (!tally) return rate;
  const cpu = process.cpuUsage(cpuBefore);
  tally.benchCpuMs += (cpu.user + cpu.system) / 1000;
  tally.postgresCpuMs += processTreeCpuMs(opts.postmaster) - pgBefore;
  tally.rates.push(rate);
  tally.times.push(...times);
  tally.count += opts.count;
  if (opts.stats) {
    const rows = await readStatementStats();
    tally.statements = (tally.statements ?? 0) + rows.reduce((n, r) => n + Number(r.calls), 0);
    for (const r of rows) {
      const seen = tally.byQuery.get(r.queryid) ?? { query: r.query, calls: 0, total: 0 };
      seen.calls += Number(r.calls);
      seen.total += r.total;
      tally.byQuery.set(r.queryid, seen);
    }
  }
  return rate;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function benchApprovals(opts: {
  databaseUrl: string;
  partnerId: string;
  pharmacyNpi: string;
  actor: SessionUser;
  count: number;
  rounds: number;
}): Promise<ApprovalsResult> {
  const concurrency = 4;
  const chains = env().AUDIT_CHAINS;
  await installJobQueue(opts.databaseUrl); // approvals enqueue their callback jobs (no worker takes them here)
  const stats = await enableStatementStats();
  const settings = { ...opts, concurrency, stats, postmaster: await postmasterPid() };
  const tally = (): Tally => ({
    rates: [],
    times: [],
    count: 0,
    benchCpuMs: 0,
    postgresCpuMs: 0,
    statements: null,
    byQuery: new Map(),
  });
  const results = { single: tally(), chained: tally() };
  const loads: number[] = [os.loadavg()[0]!];
  await round({ ...settings, count: 20 }); // warm-up
  try {
    for (let r = 0; r < opts.rounds; r++) {
      for (const side of r % 2 === 0 ? (["single", "chained"] as const) : (["chained", "single"] as const)) {
        const done = progress(
          `approvals: ${opts.count} at ${concurrency} at once, ${side === "single" ? "1 audit chain" : `${chains} audit chains`}`,
          1,
        );
        setEnv({ AUDIT_CHAINS: side === "single" ? "1" : String(chains) });
        await round(settings, results[side]);
        loads.push(os.loadavg()[0]!);
        done();
      }
    }
  } finally {
    setEnv({ AUDIT_CHAINS: String(chains) });
  }
  const side = (s: Tally): Side => ({
    approvalsPerSecond: Math.round(median(s.rates)),
    p50: round1(percentile(s.times, 50)),
    p95: round1(percentile(s.times, 95)),
    statementsPerApproval: s.statements === null ? null : round2(s.statements / s.count),
    benchCpuMsPerApproval: round2(s.benchCpuMs / s.count),
    postgresCpuMsPerApproval: round2(s.postgresCpuMs / s.count),
  });
  const single = side(results.single);
  const chained = side(results.chained);
  const statements = stats
    ? [...results.chained.byQuery.values()]
        .sort((a, b) => b.total - a.total)
        .map((q) => ({
          query: q.query.replace(/\s+/g, " ").slice(0, 160),
          callsPerApproval: round2(q.calls / results.chained.count),
          meanMs: round2(q.total / q.calls),
          totalMsPerApproval: round2(q.total / results.chained.count),
        }))
    : null;
  const result: ApprovalsResult = {
    concurrency,
    chains,
    single,
    chained,
    ratio: round2(chained.approvalsPerSecond / single.approvalsPerSecond),
    rounds: opts.rounds,
    count: opts.count,
    loadAverage: { min: Math.min(...loads), max: Math.max(...loads) },
    statements,
  };
  printApprovals(result);
  return result;
}

/** The load-robust figures and the statement profile (bench/run.ts prints the rates). */
function printApprovals(r: ApprovalsResult): void {
  const line = (name: string, s: Side) =>
    `  ${name}: ${s.statementsPerApproval ?? "?"} statements, CPU ms bench ${s.benchCpuMsPerApproval} + PostgreSQL ${s.postgresCpuMsPerApproval} per approval\n`;
  process.stdout.write(
    `\napprovals, per approval (load average ${r.loadAverage.min.toFixed(1)}-${r.loadAverage.max.toFixed(1)}):\n`,
  );
  process.stdout.write(line(`${r.chains} audit chains`, r.chained) + line("1 audit chain", r.single));
  if (!r.statements) {
    process.stdout.write("  (pg_stat_statements not available: no statement profile)\n");
    return;
  }
  process.stdout.write(`statements of the ${r.chains}-chain side (calls/approval, mean ms, total ms/approval):\n`);
  for (const s of r.statements.slice(0, 15))
    process.stdout.write(`  ${s.callsPerApproval}  ${s.meanMs}  ${s.totalMsPerApproval}  ${s.query}\n`);
}
