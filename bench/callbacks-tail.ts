// `npx tsx bench/callbacks-tail.ts [backlog] [samples]`: the approve-to-callback tail under the state a full
// `npm run bench` leaves before its callbacks part. The approvals part leaves a backlog of approved transfers
// whose callbacks go to a dead endpoint (the Bench Sender's 127.0.0.1:9); a worker started over it works through
// their failures and retries while approvals to a live receiver are made one at a time, and each one's wait
// from its commit to its callback's arrival is measured. Prints p50, p99, the maximum and how many waited
// over a second, with the queue's state at each of those.
import path from "node:path";
import pg from "pg";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { createPartner } from "@/lib/partners/create-partner";
import { createUser } from "@/lib/users/create-user";
import { approveTransfer } from "@/lib/transfers/decision";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { startCallbackReceiver } from "@/tests/support/callback-receiver";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";
import { arrivalOf, pendingTransfers, pool } from "./callbacks-support";
import { percentile, ROOT, setBenchEnv, startProcess, stopProcess } from "./support";

const backlog = Number(process.argv[2] ?? 1200);
const samples = Number(process.argv[3] ?? 60);

const postgres = await startTestPostgres();
const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_tail");
setBenchEnv(databaseUrl);
await installJobQueue(databaseUrl);
const dead = await createPartner({ name: "Dead", callbackUrl: "http://127.0.0.1:9/unused", npis: [] });
const receiver = await startCallbackReceiver();
const live = await createPartner({ name: "Live", callbackUrl: `${receiver.baseUrl}/ours`, npis: [] });
const { userId } = await createUser({
  email: "t@pharmacy.test",
  password: randomBytes(12).toString("base64url"),
  role: "pharmacist",
  name: "T",
});
const actor = { id: userId, email: "t@pharmacy.test", name: "T", role: "pharmacist" as const };
const approve = (id: string) =>
  approveTransfer({ transferId: id, actor, clientAddress: "127.0.0.1", approval: { oneTimeTransferConfirmed: true } });
const deadIds = await pendingTransfers(dead.partnerId, DEMO_PHARMACY_NPI, backlog);
await pool(deadIds, 4, async (id) => void (await approve(id)));
const liveIds = await pendingTransfers(live.partnerId, DEMO_PHARMACY_NPI, samples + 1);
const worker = startProcess(
  0,
  process.execPath,
  [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/worker.ts")],
  {
    DATABASE_URL: databaseUrl,
    ...TEST_SECRETS,
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
    LOG_LEVEL: "error",
  },
);
worker.stderr?.pipe(process.stderr);
const stats = new pg.Client({ connectionString: databaseUrl });
await stats.connect();
try {
  await approve(liveIds[0]!);
  await receiver.waitFor("/ours", 1, 60_000);
  const latencies: number[] = [];
  for (const id of liveIds.slice(1)) {
    await approve(id);
    const committed = Date.now();
    const before = receiver.requests("/ours").length;
    await receiver.waitFor("/ours", before + 1, 60_000);
    const ms = arrivalOf(receiver, "/ours", id)! - committed;
    latencies.push(ms);
    if (ms > 1000) {
      const { rows } = await stats.query(
        `SELECT (SELECT count(*) FROM graphile_worker.jobs WHERE run_at <= now() AND locked_at IS NULL)::int AS due_jobs,
                (SELECT count(*) FROM graphile_worker.jobs WHERE locked_at IS NOT NULL)::int AS locked_jobs,
                (SELECT count(*) FROM callbacks WHERE status = 'PENDING')::int AS pending`,
      );
      process.stdout.write(`slow ${id}: ${ms} ms ${JSON.stringify(rows[0])}\n`);
    }
  }
  const slow = latencies.filter((l) => l > 1000).length;
  process.stdout.write(
    `${JSON.stringify({ backlog, samples, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), over1s: slow, load: os.loadavg()[0] })}\n`,
  );
} finally {
  await stats.end();
  await stopProcess(worker);
  await receiver.close();
  await postgres.stop();
}
