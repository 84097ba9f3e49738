// Intake with a store's immediate-confirmation policy on, every transfer qualifying (CONFIRMED in the answer,
// its decision record and audit event in the transaction that stores it), against the same server and the same
// transfers to a store with the policy off, in alternating rounds: the ratio of the two req/s. One `npm start`
// on core 0, the load on core 1, as bench/intake.ts. Every transfer has its own patient (no duplicate therapy)
// and the "on" store's hourly cap is set in the database above what the run sends (the admin API stops at
// 10 000), so each one is judged and confirmed: the run fails if any answer to the "on" store is not CONFIRMED.
import { randomBytes } from "node:crypto";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { addStore } from "@/lib/stores/add-store";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { computeNpiCheckDigit } from "@/lib/interface";
import { createUser } from "@/lib/users/create-user";
import { freePort, TEST_SECRETS } from "@/tests/support/server";
import type { LoadResult } from "./intake";
import {
  median,
  processTreeCpuMs,
  progress,
  runJsonChild,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForHttp,
} from "./support";

type Side = { requestsPerSecond: number; p50: number; p99: number; cpuMsPerRequest: number; runs: LoadResult[] };
export type IntakeImmediateResult = {
  connections: number;
  seconds: number;
  rounds: number;
  policyOff: Side;
  policyOn: Side & { confirmed: number; total: number };
  /** Policy on over policy off, req/s (the aim: 0.85 or more). */
  ratio: number;
};

function npi(): string {
  const body = `1${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

/** A qualifying request (atorvastatin, no known allergies) to `receivingNpi`, with the load child's placeholders. */
function template(receivingNpi: string): string {
  const request = buildTransferRequest({}, { receivingNpi });
  request.metadata.requestID = "__REQUEST_ID__";
  request.prescription.rxNumber = "__RX__";
  request.patient.name.lastName = "__LAST__";
  request.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
  return JSON.stringify(request);
}

export async function benchIntakeImmediate(opts: {
  databaseUrl: string;
  authSecret: string;
  apiKey: string;
  pharmacyNpi: string;
  connections: number;
  seconds: number;
  rounds: number;
}): Promise<IntakeImmediateResult> {
  const off = { npi: npi() };
  const on = { npi: npi(), storeId: "" };
  await addStore({ name: "Bench policy off", npi: off.npi, dea: null, actor: CLI_ACTOR });
  on.storeId = (await addStore({ name: "Bench policy on", npi: on.npi, dea: null, actor: CLI_ACTOR })).storeId;
  const { userId } = await createUser({
    email: `bench-pic-${randomBytes(4).toString("hex")}@bench.example`,
    password: `pw-${randomBytes(12).toString("hex")}`,
    role: "pharmacist",
    name: "Bench Pic, PharmD",
  });
  await setImmediateConfirmPolicy({
    storeRef: on.storeId,
    change: { enabled: true, ownerUserId: userId, state: "TX", boardRule: "22 TAC 291.34(g)" },
    actor: CLI_ACTOR,
  });
  await db().immediateConfirmPolicy.update({ where: { storeId: on.storeId }, data: { hourlyCap: 100_000_000 } });

  const port = await freePort();
  const server = startProcess(
    0,
    process.execPath,
    [...SERVER_NODE_FLAGS, "--import", "tsx", "scripts/serve.ts", "start"],
    {
      NODE_ENV: "production",
      ALLOW_DEMO_PHARMACY: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: opts.databaseUrl,
      ...TEST_SECRETS,
      AUTH_SECRET: opts.authSecret,
      PHARMACY_NPI: opts.pharmacyNpi,
      V1_RATE_LIMIT_PER_MINUTE: "1000000000",
      PORT: String(port),
    },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/v1/openapi.json`, server);
    const templates = { off: template(off.npi), on: template(on.npi) };
    const run = async (side: "off" | "on", seconds: number, label: string) => {
      const done = progress(label, seconds);
      const cpuBefore = processTreeCpuMs(server.pid!);
      try {
        const load = await runJsonChild<LoadResult>(1, "bench/load-child.ts", {
          url: `http://127.0.0.1:${port}`,
          apiKey: opts.apiKey,
          template: templates[side],
          connections: opts.connections,
          seconds,
          prefix: `${side}${randomBytes(4).toString("hex")}`,
        });
        if (load.non2xx > 0 || load.errors > 0)
          throw new Error(`intake (policy ${side}) had failures: ${JSON.stringify(load)}`);
        return { ...load, cpuMsPerRequest: (processTreeCpuMs(server.pid!) - cpuBefore) / Math.max(1, load.total) };
      } finally {
        done();
      }
    };
    for (const side of ["off", "on"] as const)
      await run(side, Math.min(5, opts.seconds), `intake policy ${side} warm-up`);
    const runs: Record<"off" | "on", (LoadResult & { cpuMsPerRequest: number })[]> = { off: [], on: [] };
    for (let round = 1; round <= opts.rounds; round++) {
      for (const side of round % 2 === 1 ? (["off", "on"] as const) : (["on", "off"] as const))
        runs[side].push(await run(side, opts.seconds, `intake policy ${side} round ${round}/${opts.rounds}`));
    }
    const [counts] = await db().$queryRaw<{ confirmed: number; total: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'CONFIRMED')::int AS confirmed, count(*)::int AS total
        FROM transfers WHERE receiving_npi = ${on.npi}`;
    if (!counts || counts.confirmed !== counts.total)
      throw new Error(`not every transfer to the policy-on store was CONFIRMED: ${JSON.stringify(counts)}`);
    const side = (r: (LoadResult & { cpuMsPerRequest: number })[]): Side => ({
      requestsPerSecond: Math.round(median(r.map((x) => x.requestsPerSecond))),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      cpuMsPerRequest: Math.round(median(r.map((x) => x.cpuMsPerRequest)) * 1000) / 1000,
      runs: r,
    });
    const policyOff = side(runs.off);
    const policyOn = { ...side(runs.on), ...counts };
    const ratio = Math.round((policyOn.requestsPerSecond / policyOff.requestsPerSecond) * 100) / 100;
    process.stdout.write(
      `  immediate confirmation: policy on ${policyOn.requestsPerSecond} req/s (p99 ${policyOn.p99} ms, ${policyOn.cpuMsPerRequest} ms CPU/request, ${counts.confirmed} CONFIRMED) vs off ${policyOff.requestsPerSecond} req/s (p99 ${policyOff.p99} ms, ${policyOff.cpuMsPerRequest} ms CPU/request): ratio ${ratio}\n`,
    );
    return { connections: opts.connections, seconds: opts.seconds, rounds: opts.rounds, policyOff, policyOn, ratio };
  } finally {
    await stopProcess(server);
  }
}
