// Intake with a store's immediate-confirmation policy on, every transfer qualifying (CONFIRMED in the answer,
// its decision record and audit event in the transaction that stores it), against the same server and the same
// transfers to a store with the policy off, in alternating rounds: the ratio of the two req/s. One `npm start`
// on core 0, the load on core 1, as bench/intake.ts. Every transfer has its own patient (no duplicate therapy)
// and the "on" store's hourly cap is set in the database above what the run sends (the admin API stops at
// 10 000), so each one is judged and confirmed: the run fails if any answer to the "on" store is not CONFIRMED.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { addStore } from "@/lib/stores/add-store";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { computeNpiCheckDigit } from "@/lib/interface";
import { createUser } from "@/lib/users/create-user";
import { freePort } from "@/tests/support/server";
import {
  measureLoad,
  startProductServer,
  summarize,
  type IntakeBenchOptions,
  type ServerRun,
  type Summary,
} from "./intake";
import { stopProcess, waitForHttp } from "./support";

export type IntakeImmediateResult = {
  connections: number;
  seconds: number;
  rounds: number;
  policyOff: Summary;
  policyOn: Summary & { confirmed: number; total: number };
  /** Policy on over policy off, req/s (the aim: 0.85 or more). */
  ratio: number;
};

function npi(): string {
  const body = `1${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, "0")}`;
  return `${body}${computeNpiCheckDigit(body)}`;
}

/** A qualifying request (atorvastatin, no known allergies) to `receivingNpi`, with the load child's placeholders. */
export function template(receivingNpi: string): string {
  const request = buildTransferRequest({}, { receivingNpi });
  request.metadata.requestID = "__REQUEST_ID__";
  request.prescription.rxNumber = "__RX__";
  request.patient.name.lastName = "__LAST__";
  request.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
  return JSON.stringify(request);
}

/** Two stores, one with the policy on (its cap above anything a run sends, its owner an active pharmacist), one off. */
export async function setUpPolicyStores(): Promise<{ off: { npi: string }; on: { npi: string; storeId: string } }> {
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

  return { off, on };
}

export async function benchIntakeImmediate(opts: IntakeBenchOptions): Promise<IntakeImmediateResult> {
  const { off, on } = await setUpPolicyStores();
  const port = await freePort();
  const server = startProductServer("immediate", port, opts);
  const transactions = new pg.Client({ connectionString: opts.databaseUrl });
  await transactions.connect();
  try {
    await waitForHttp(`http://127.0.0.1:${port}/v1/openapi.json`, server);
    const templates = { off: template(off.npi), on: template(on.npi) };
    const run = (side: "off" | "on", seconds: number, label: string) =>
      measureLoad({
        server,
        url: `http://127.0.0.1:${port}`,
        apiKey: opts.apiKey,
        template: templates[side],
        connections: opts.connections,
        seconds,
        label,
        prefix: `${side}${randomBytes(4).toString("hex")}`,
        transactions,
      });
    for (const side of ["off", "on"] as const)
      await run(side, Math.min(5, opts.seconds), `intake policy ${side} warm-up`);
    const runs: Record<"off" | "on", ServerRun[]> = { off: [], on: [] };
    for (let round = 1; round <= opts.rounds; round++) {
      for (const side of round % 2 === 1 ? (["off", "on"] as const) : (["on", "off"] as const))
        runs[side].push(await run(side, opts.seconds, `intake policy ${side} round ${round}/${opts.rounds}`));
    }
    const [counts] = await db().$queryRaw<{ confirmed: number; total: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'CONFIRMED')::int AS confirmed, count(*)::int AS total
        FROM transfers WHERE receiving_npi = ${on.npi}`;
    if (!counts || counts.confirmed !== counts.total)
      throw new Error(`not every transfer to the policy-on store was CONFIRMED: ${JSON.stringify(counts)}`);
    const policyOff = summarize(runs.off);
    const policyOn = { ...summarize(runs.on), ...counts };
    const ratio = Math.round((policyOn.requestsPerSecond / policyOff.requestsPerSecond) * 100) / 100;
    process.stdout.write(
      `  immediate confirmation: policy on ${policyOn.requestsPerSecond} req/s (p99 ${policyOn.p99} ms, ${policyOn.cpuMsPerRequest} ms CPU/request, ${policyOn.transactionsPerRequest} transactions/request, ${counts.confirmed} CONFIRMED) vs off ${policyOff.requestsPerSecond} req/s (p99 ${policyOff.p99} ms, ${policyOff.cpuMsPerRequest} ms CPU/request): ratio ${ratio}\n`,
    );
    return { connections: opts.connections, seconds: opts.seconds, rounds: opts.rounds, policyOff, policyOn, ratio };
  } finally {
    await transactions.end();
    await stopProcess(server);
  }
}
