// Shared by the callback integration tests: partners whose callback URL points at the test receiver,
// transfers decided by the dashboard's own operations (approveTransfer / rejectTransfer: the decision, the
// outcome and the outbox entry in one transaction), and separate worker processes (`npm run worker`, as an
// operator runs it).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import type { SessionUser } from "@/lib/auth/require-user";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db, disconnectDb } from "@/lib/db/prisma";
import { env, setEnv } from "@/lib/env";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { approveTransfer, rejectTransfer } from "@/lib/transfers/decision";
import { receiveTransfer } from "@/lib/transfers/intake";
import { listQueue, QueueQuerySchema } from "@/lib/transfers/queue";
import { getTransferReview } from "@/lib/transfers/review";
import { createUser } from "@/lib/users/create-user";
import type { TransferRequest, TransferResponse } from "@/lib/interface";
import { freshRequest, send, senderKey } from "@/tests/support/api";
import { startCallbackReceiver, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * A test file's own database (with the job queue) and callback receiver, set up before its tests and closed
 * after them: the test server's in-process worker never takes these jobs. Read the fields inside tests.
 */
export function ownCallbackDatabase(name: string): { receiver: CallbackReceiver; databaseUrl: string } {
  const env = {} as { receiver: CallbackReceiver; databaseUrl: string };
  beforeAll(async () => {
    env.receiver = await startCallbackReceiver();
    env.databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), name);
    await installJobQueue(env.databaseUrl);
    await disconnectDb();
    setEnv({ DATABASE_URL: env.databaseUrl });
  });
  afterAll(async () => {
    await env.receiver?.close();
    await disconnectDb();
  });
  return env;
}

/** A partner whose callbacks go to `callbackUrl` (configured with private networks allowed, as in tests). */
export async function createCallbackPartner(callbackUrl: string): Promise<CreatedPartner> {
  setEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "true", CALLBACK_ALLOW_INSECURE_HTTP: "true" });
  return createPartner({ name: `Callback Partner ${randomUUID().slice(0, 8)}`, callbackUrl, npis: [] });
}

export type DecidedTransfer = {
  transferId: string;
  callbackId: string;
  request: TransferRequest;
  received: TransferResponse;
  outcome: TransferResponse;
  /** Date.now() right after the decision committed. */
  committedAt: number;
};

/**
 * A transfer received from `partner` (over HTTP when `baseUrl` is given, else through the same domain
 * operation the route calls), then approved or rejected by a pharmacist as the dashboard does.
 */
export async function decideTransfer(opts: {
  partner: CreatedPartner;
  decision: "CONFIRMED" | "ERROR";
  baseUrl?: string;
}): Promise<DecidedTransfer> {
  const request = freshRequest();
  let received: TransferResponse;
  if (opts.baseUrl) {
    const answer = await send(opts.baseUrl, { body: request, authorization: senderKey(opts.partner.apiKey) });
    if (answer.status !== 200) throw new Error(`transfer not received: ${answer.status} ${answer.text}`);
    received = answer.body;
  } else {
    const outcome = await receiveTransfer(opts.partner.partnerId, request);
    if (outcome.kind !== "created") throw new Error(`transfer not created: ${outcome.kind}`);
    received = outcome.response;
  }
  const transferId = received.metadata.referenceID;
  const { callbackId, outcome } = await recordDecision({ transferId, decision: opts.decision });
  return { transferId, callbackId, request, received, outcome, committedAt: Date.now() };
}

/** Pharmacists are per database, and the callback tests switch databases: one each, made when first needed. */
const pharmacists = new Map<string, Promise<SessionUser>>();

function fixturePharmacist(): Promise<SessionUser> {
  const databaseUrl = env().DATABASE_URL ?? "";
  let pharmacist = pharmacists.get(databaseUrl);
  if (!pharmacist) {
    const email = `fixture-${randomUUID().slice(0, 8)}@pharmacy.test`;
    const name = "Fixture Pharmacist, PharmD";
    pharmacist = createUser({ email, password: randomBytes(12).toString("base64url"), role: "pharmacist", name }).then(
      ({ userId }) => ({ id: userId, email, name, role: "pharmacist" as const }),
    );
    pharmacists.set(databaseUrl, pharmacist);
  }
  return pharmacist;
}

/** Decides a RECEIVED transfer through the dashboard's operations: CONFIRMED approves it, ERROR rejects it. */
export async function recordDecision(opts: {
  transferId: string;
  decision: "CONFIRMED" | "ERROR";
}): Promise<{ callbackId: string; outcome: TransferResponse }> {
  const { transferId } = opts;
  const actor = await fixturePharmacist();
  const decided =
    opts.decision === "CONFIRMED"
      ? await approveTransfer({ transferId, actor, clientAddress: null, approval: { localRxNumber: "L-42" } })
      : await rejectTransfer({
          transferId,
          actor,
          clientAddress: null,
          rejection: {
            errorType: "INVALID_INFO",
            description: "prescription.refillsRemaining: no refills left to transfer",
          },
        });
  return { callbackId: decided.callbackId, outcome: decided.response };
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The callback's automatic jobs that may still run (graphile-worker keys them by the callback's id). */
export async function runnableJobs(callbackId: string): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${callbackId} AND attempts < max_attempts`;
  return rows[0]?.n ?? 0;
}

/**
 * The callback status the dashboard shows for a transfer, as the queue and the review screen each read it
 * (from the transfer's callbacks row): both, so that a test sees them agree.
 */
export async function dashboardCallbackStatus(
  transferId: string,
): Promise<{ queue: string | null; review: string | null }> {
  const actor = await fixturePharmacist();
  const page = await listQueue(QueueQuerySchema.parse({ status: "all", q: transferId }), {
    actor,
    clientAddress: null,
  });
  const item = page.items.find((i) => i.referenceID === transferId);
  if (!item) throw new Error(`transfer ${transferId} is not in the queue`);
  const review = await getTransferReview(transferId, { actor, clientAddress: null, screen: "review" });
  return { queue: item.callbackStatus, review: review.callbackStatus };
}

export function callbackRow(callbackId: string) {
  return db().callback.findUniqueOrThrow({
    where: { id: callbackId },
    include: { attempts: { orderBy: { attemptNumber: "asc" } } },
  });
}

export type WorkerProcess = {
  pid: number;
  output(): string;
  /** SIGKILL to the whole process group: no graceful anything. */
  kill(): Promise<void>;
  /** SIGTERM, as an orchestrator stops it. */
  stop(): Promise<void>;
};

/** `npm run worker` against `databaseUrl` with extra settings; resolves once it says it is running. */
export async function startWorkerProcess(opts: {
  databaseUrl: string;
  authSecret: string;
  env?: Record<string, string>;
}): Promise<WorkerProcess> {
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/worker.ts"],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: opts.databaseUrl,
        ...TEST_SECRETS,
        AUTH_SECRET: opts.authSecret,
        LOG_LEVEL: "info",
        CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
        CALLBACK_ALLOW_INSECURE_HTTP: "true",
        ...opts.env,
      },
    },
  );
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const pid = child.pid!;
  const deadline = Date.now() + 60_000;
  while (!output.includes("[rx-transfer worker] running")) {
    if (child.exitCode !== null) throw new Error(`worker exited early (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      process.kill(-pid, "SIGKILL");
      throw new Error(`worker did not start in 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    pid,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-pid, "SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-pid, "SIGTERM");
      const timer = setTimeout(() => process.kill(-pid, "SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
