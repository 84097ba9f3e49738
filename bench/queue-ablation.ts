// `npx tsx bench/queue-ablation.ts [transfers]` (default 1 000 000): what each part of a plain queue page costs
// (to find what made the first page cost more once queue grouping and alerts came). On one seeded, vacuumed table, alternating rounds
// of the first and the deep page read as:
//   served     listQueue as a person's click runs it: the page, counts, and the queue.viewed audit record;
//   refresh    the screen's 5-second refresh (isBackground): the same without the audit record;
//   uncached   `served` with the store directory (rules and alert settings) read from the database each page,
//              as the alert settings were before they joined the directory's cache.
// Also: the database statements per page (Prisma query events) and the patient groups + after-hours marks
// computed alone over the page's rows.
import { randomBytes } from "node:crypto";
import { DEFAULT_ALERT_SETTINGS } from "@/lib/alerts/alert-settings";
import { arrivedAfterHours } from "@/lib/alerts/opening-hours";
import { db, enableQueryEvents } from "@/lib/db/prisma";
import { createPartner } from "@/lib/partners/create-partner";
import { forgetStoreDirectory, getAllStoreAlertSettings } from "@/lib/stores/store-npis";
import { listQueue, QueueQuerySchema, type QueueQuery, groupConsecutivePatients } from "@/lib/transfers/queue";
import { createUser } from "@/lib/users/create-user";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { seedTransfers } from "./seed-transfers";
import { median, percentile, setBenchEnv } from "./support";

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = 4;
const RUNS = 15;
const round2 = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const postgres = await startTestPostgres();
  try {
    const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_queue_ablation");
    setBenchEnv(databaseUrl);
    enableQueryEvents();
    let statements = 0;
    (db() as unknown as { $on(event: "query", cb: () => void): void }).$on("query", () => statements++);
    const partner = await createPartner({ name: "Bench Sender", callbackUrl: "http://127.0.0.1:9/unused", npis: [] });
    const { userId } = await createUser({
      email: "ablation@pharmacy.test",
      password: randomBytes(12).toString("base64url"),
      role: "pharmacist",
      name: "Ablation",
    });
    const actor = { id: userId, email: "ablation@pharmacy.test", name: "Ablation", role: "pharmacist" as const };
    const seedSeconds = await seedTransfers(databaseUrl, partner.partnerId, TOTAL);
    process.stdout.write(`seeded ${TOTAL.toLocaleString()} transfers in ${seedSeconds} s\n`);

    const [deep] = await db().$queryRaw<{ received_at: Date; id: string }[]>`
      SELECT received_at, id FROM transfers WHERE status = 'RECEIVED'
       ORDER BY received_at, id OFFSET (SELECT count(*) * 9 / 10 FROM transfers WHERE status = 'RECEIVED') LIMIT 1`;
    const cursor = Buffer.from(JSON.stringify({ p: 0, t: deep!.received_at.toISOString(), i: deep!.id })).toString(
      "base64url",
    );
    const pages: Record<string, QueueQuery> = {
      first: QueueQuerySchema.parse({}),
      deep: QueueQuerySchema.parse({ cursor }),
    };
    const variants = {
      served: (q: QueueQuery) => listQueue(q, { actor, clientAddress: "127.0.0.1" }),
      refresh: (q: QueueQuery) => listQueue(q, { actor, clientAddress: "127.0.0.1", isBackground: true }),
      uncached: (q: QueueQuery) => {
        forgetStoreDirectory();
        return listQueue(q, { actor, clientAddress: "127.0.0.1" });
      },
    };
    type Variant = keyof typeof variants;
    const times: Record<string, number[]> = {};
    const perPage: Record<string, number> = {};
    for (const [page, query] of Object.entries(pages)) {
      for (const [name, run] of Object.entries(variants) as [Variant, (q: QueueQuery) => Promise<unknown>][]) {
        for (let i = 0; i < 3; i++) await run(query);
        statements = 0;
        await run(query);
        perPage[`${page} ${name}`] = statements;
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [page, query] of Object.entries(pages)) {
        for (const [name, run] of Object.entries(variants) as [Variant, (q: QueueQuery) => Promise<unknown>][]) {
          const list = (times[`${page} ${name}`] ??= []);
          for (let i = 0; i < RUNS; i++) {
            const t = performance.now();
            await run(query);
            list.push(performance.now() - t);
          }
        }
      }
    }
    for (const [key, list] of Object.entries(times)) {
      process.stdout.write(
        `${key.padEnd(16)} p50 ${round2(median(list))} ms  p95 ${round2(percentile(list, 95))} ms  statements/page ${perPage[key]}\n`,
      );
    }

    // The patient groups and after-hours marks alone, over the first page's own rows.
    const rows = await db().$queryRaw<
      {
        status: string;
        patient_name_key: string;
        patient_dob: Date;
        partner_id: string;
        patient_reference_id: string | null;
        received_at: Date;
        receiving_npi: string;
      }[]
    >`
      SELECT status::text AS status, patient_name_key, patient_dob, partner_id, patient_reference_id, received_at, receiving_npi
        FROM transfers WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 50`;
    const alerts = await getAllStoreAlertSettings();
    const reps = 2000;
    const t = performance.now();
    for (let i = 0; i < reps; i++) {
      groupConsecutivePatients(
        rows.map((r) => ({
          pending: r.status === "RECEIVED",
          nameKey: r.patient_name_key,
          dob: r.patient_dob.toISOString().slice(0, 10),
          partnerId: r.partner_id,
          patientReferenceId: r.patient_reference_id,
        })),
      );
      for (const r of rows) {
        const s = alerts.get(r.receiving_npi) ?? DEFAULT_ALERT_SETTINGS;
        arrivedAfterHours(r.received_at, s.openingHours, s.timeZone);
      }
    }
    process.stdout.write(
      `patient groups + after-hours marks for a 50-row page: ${round2((performance.now() - t) / reps)} ms\n`,
    );
  } finally {
    await postgres.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
