// Approvals at concurrency 4 (issue 19): the decision's whole transaction (lock the transfer, the store's
// rules, the decision row, the callback job, the audit record), through the same approveTransfer the
// dashboard calls, with no worker running so that delivery does not share the cores. Rounds alternate
// between AUDIT_CHAINS=1 (one chain behind one lock: the audit log as it was) and the configured chains,
// so both are measured in the same run.
import type { SessionUser } from "@/lib/auth/require-user";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { env, setEnv } from "@/lib/env";
import { approveTransfer } from "@/lib/transfers/approve-transfer";
import { pendingTransfers, pool } from "./callbacks";
import { percentile, progress } from "./support";

type Side = { approvalsPerSecond: number; p50: number; p95: number };
export type ApprovalsResult = { concurrency: number; chains: number; single: Side; chained: Side; ratio: number; rounds: number; count: number };

async function round(partnerId: string, pharmacyNpi: string, actor: SessionUser, count: number, concurrency: number): Promise<{ rate: number; times: number[] }> {
  const ids = await pendingTransfers(partnerId, pharmacyNpi, count);
  const times: number[] = [];
  const started = performance.now();
  await pool(ids, concurrency, async (id) => {
    const t = performance.now();
    await approveTransfer({ transferId: id, actor, clientAddress: "127.0.0.1", approval: { oneTimeTransferConfirmed: true } });
    times.push(performance.now() - t);
  });
  return { rate: count / ((performance.now() - started) / 1000), times };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchApprovals(opts: { databaseUrl: string; partnerId: string; pharmacyNpi: string; actor: SessionUser; count: number; rounds: number }): Promise<ApprovalsResult> {
  const concurrency = 4;
  const chains = env().AUDIT_CHAINS;
  await installJobQueue(opts.databaseUrl); // approvals enqueue their callback jobs (no worker takes them here)
  const results = { single: { rates: [] as number[], times: [] as number[] }, chained: { rates: [] as number[], times: [] as number[] } };
  await round(opts.partnerId, opts.pharmacyNpi, opts.actor, 20, concurrency); // warm-up
  try {
    for (let r = 0; r < opts.rounds; r++) {
      for (const side of r % 2 === 0 ? (["single", "chained"] as const) : (["chained", "single"] as const)) {
        const done = progress(`approvals: ${opts.count} at ${concurrency} at once, ${side === "single" ? "1 audit chain" : `${chains} audit chains`}`, 1);
        setEnv({ AUDIT_CHAINS: side === "single" ? "1" : String(chains) });
        const { rate, times } = await round(opts.partnerId, opts.pharmacyNpi, opts.actor, opts.count, concurrency);
        results[side].rates.push(rate);
        results[side].times.push(...times);
        done();
      }
    }
  } finally {
    setEnv({ AUDIT_CHAINS: String(chains) });
  }
  const side = (s: { rates: number[]; times: number[] }): Side => ({
    approvalsPerSecond: Math.round(median(s.rates)),
    p50: Math.round(percentile(s.times, 50) * 10) / 10,
    p95: Math.round(percentile(s.times, 95) * 10) / 10,
  });
  const single = side(results.single);
  const chained = side(results.chained);
  return { concurrency, chains, single, chained, ratio: Math.round((chained.approvalsPerSecond / single.approvalsPerSecond) * 100) / 100, rounds: opts.rounds, count: opts.count };
}
