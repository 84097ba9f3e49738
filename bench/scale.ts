// The scale part (`--only scale`): the service over a chain's years of transfers (SCALE_TRANSFERS, seeded by
// SQL and vacuumed). Short intake rounds at a fifth of the size, then, once seeded up to the whole size: every
// queue case (the patient history and the transfer log's first pages among them), the same intake rounds again
// (same server settings: the ratio says what the table's size costs the intake), the dashboard in Chromium,
// and `cli backup` / `cli restore` timed with their sizes. Run last: the restore replaces the database.
import { benchBackupRestore, type BackupRestoreFailure, type BackupRestoreResult } from "./scale-backup";
import type { DashboardResult } from "./dashboard-result";
import type { IntakeResult } from "./intake";
import type { QueueSize } from "./queue";
import type { ScaleDisk } from "./scale-disk";
import { seedTransfers } from "./seed-transfers";

/** One size's intake, as the scale part compares them: ours and the baseline, req/s and CPU per request. */
export type ScaleIntake = {
  transfers: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number;
  baselineRequestsPerSecond: number;
  ratioToBaseline: number;
  full: IntakeResult;
};

export type ScaleResult = ScaleDisk & {
  skipped: string | null;
  smallerTransfers?: number;
  intake?: {
    smaller: ScaleIntake;
    scale: ScaleIntake;
    /** ours at the whole size / ours at the fifth, req/s (the aim: 0.9 or more). */
    ratio: number;
    /** CPU per request at the fifth / at the whole size (1: the table's size costs nothing). */
    cpuRatio: number;
    /** The baseline's own ratio, the machine's drift between the two bouts. */
    baselineRatio: number;
    /** ours / baseline at the whole size over the same at the fifth: the ratio with the drift taken out. */
    ratioToBaselines: number;
  };
  queue?: QueueSize;
  dashboard?: DashboardResult;
  backupRestore?: BackupRestoreResult | BackupRestoreFailure;
  seconds?: number;
};

export type ScaleSteps = {
  databaseUrl: string;
  partnerId: string;
  /** Short intake rounds (bench/intake.ts's benchIntake) over the table as it is. */
  intake(): Promise<IntakeResult>;
  /** The queue part's cases over the table as it is. */
  queue(transfers: number, seedSeconds: number): Promise<QueueSize>;
  dashboard(transfers: number): Promise<DashboardResult>;
  step(text: string): void;
};

function scaleIntake(transfers: number, r: IntakeResult): ScaleIntake {
  return {
    transfers,
    requestsPerSecond: r.ours.requestsPerSecond,
    cpuMsPerRequest: r.ours.cpuMsPerRequest,
    baselineRequestsPerSecond: r.baseline.requestsPerSecond,
    ratioToBaseline: r.ratio,
    full: r,
  };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

export async function benchScale(transfers: number, disk: ScaleDisk, steps: ScaleSteps): Promise<ScaleResult> {
  const started = Date.now();
  const smallerTransfers = Math.round(transfers / 5);
  steps.step(`scale: seeding ${smallerTransfers.toLocaleString()} transfers, then intake rounds`);
  await seedTransfers(steps.databaseUrl, steps.partnerId, smallerTransfers);
  const smaller = scaleIntake(smallerTransfers, await steps.intake());

  steps.step(`scale: seeding up to ${transfers.toLocaleString()} transfers, then the queue's cases`);
  const seedSeconds = await seedTransfers(steps.databaseUrl, steps.partnerId, transfers);
  const queue = await steps.queue(transfers, seedSeconds);

  steps.step(`scale: intake rounds at ${transfers.toLocaleString()} transfers`);
  const scale = scaleIntake(transfers, await steps.intake());

  steps.step(`scale: the dashboard in Chromium at ${transfers.toLocaleString()} transfers`);
  const dashboard = await steps.dashboard(transfers);

  steps.step(`scale: cli backup, then cli restore --yes over the same database`);
  // A failed backup or restore is a finding of the run, kept beside what was measured before it.
  const backupRestore = await benchBackupRestore(steps.databaseUrl, transfers).catch(
    (err: unknown): BackupRestoreFailure => ({ failed: err instanceof Error ? err.message : String(err) }),
  );
  return {
    ...disk,
    skipped: null,
    smallerTransfers,
    intake: {
      smaller,
      scale,
      ratio: ratio(scale.requestsPerSecond, smaller.requestsPerSecond),
      cpuRatio: ratio(smaller.cpuMsPerRequest, scale.cpuMsPerRequest),
      baselineRatio: ratio(scale.baselineRequestsPerSecond, smaller.baselineRequestsPerSecond),
      ratioToBaselines: ratio(scale.ratioToBaseline, smaller.ratioToBaseline),
    },
    queue,
    dashboard,
    backupRestore,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
