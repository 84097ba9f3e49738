// `npx tsx bench/intake-startup-pass.ts [rows] [rate]` (default 100 000 rows, 250 req/s): the evenly paced
// intake's latency in the first seconds after `npm start`, while its start-up pass (startCheckFlagsPass)
// classifies `rows` stored transfers that lack a classification column (as rows stored by an older release,
// or by the intake part's baseline server, do), against the same server started over the same rows already
// classified. Alternating rounds, each on a freshly started server; the load on core 1, the server on core 0.
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { startBenchDatabase } from "./bench-database";
import { measureLoad, requestTemplate } from "./intake";
import { seedTransfers } from "./seed-transfers";
import { startNpmStart, stopProcess } from "./support";

const ROWS = Number(process.argv[2] ?? 100_000);
const RATE = Number(process.argv[3] ?? 250);
const SECONDS = 20;
const ROUNDS = 2;

async function main(): Promise<void> {
  const { postgres, databaseUrl, partner } = await startBenchDatabase("rx_startup_pass");
  try {
    await seedTransfers(databaseUrl, partner.partnerId, ROWS);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const unclassified = async () =>
      Number(
        (await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE drug_substance_key IS NULL"))
          .rows[0]!.n,
      );
    const template = requestTemplate(DEMO_PHARMACY_NPI);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const withPass of [true, false]) {
        // The seeded rows without their substance key: the start-up pass classifies every one of them again;
        // or all of them with it, as the seed made them: nothing to classify.
        await client.query(`UPDATE transfers SET drug_substance_key = ${withPass ? "NULL" : "'atorvastatin'"}`);
        await client.query("VACUUM transfers");
        const server = await startNpmStart({ databaseUrl, pharmacyNpi: DEMO_PHARMACY_NPI });
        try {
          await server.ready;
          const before = await unclassified();
          const run = await measureLoad({
            server: server.child,
            url: server.baseUrl,
            apiKey: partner.apiKey,
            template,
            connections: 50,
            seconds: SECONDS,
            label: `round ${round}, ${withPass ? "start-up pass running" : "nothing to classify"}`,
            prefix: `pass-${randomBytes(4).toString("hex")}`,
            rate: RATE,
            even: true,
          });
          const left = await unclassified();
          const classifiedPerSecond = Math.round((before - left) / SECONDS);
          process.stdout.write(
            `${withPass ? "pass    " : "no pass "} round ${round}: ${run.requestsPerSecond} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
              `${run.cpuMsPerRequest} ms server CPU/request; unclassified ${before} at ready -> ${left} after (${classifiedPerSecond}/s); load ${os.loadavg()[0]!.toFixed(1)}\n`,
          );
        } finally {
          await stopProcess(server.child);
        }
      }
    }
    await client.end();
  } finally {
    await postgres.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
