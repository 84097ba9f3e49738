// The seeded table the queue, scale and dashboard parts measure over: transfers inserted by SQL in batches
// (~2 % pending, the rest decided with their decision rows, over a year), one patient holding a tenth of them,
// then VACUUM (ANALYZE), the state a live table settles in.
import pg from "pg";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { classifyTransfer } from "@/lib/transfers/intake";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { DEFAULT_EARLY_REFILL_ALLOWANCE } from "@/lib/transfers/review";
import { progress } from "./support";

const LAST_NAMES = [
  "smith",
  "johnson",
  "williams",
  "brown",
  "jones",
  "garcia",
  "miller",
  "davis",
  "rodriguez",
  "martinez",
  "hernandez",
  "lopez",
  "gonzalez",
  "wilson",
  "anderson",
  "thomas",
  "taylor",
  "moore",
  "jackson",
  "martin",
  "lee",
  "perez",
  "thompson",
  "white",
  "harris",
  "sanchez",
  "clark",
  "ramirez",
  "lewis",
  "robinson",
  "walker",
  "young",
  "allen",
  "king",
  "wright",
  "scott",
  "torres",
  "nguyen",
  "hill",
  "flores",
];
const FIRST_NAMES = [
  "james",
  "mary",
  "robert",
  "patricia",
  "john",
  "jennifer",
  "michael",
  "linda",
  "david",
  "elizabeth",
  "william",
  "barbara",
  "richard",
  "susan",
  "joseph",
  "jessica",
  "thomas",
  "sarah",
  "charles",
  "karen",
];

/**
 * One patient holds this share of the seeded table (100 000 of 1 000 000): a chronic patient, or a sender
 * reusing one patient id. Real data is skewed like this, and the statistics it gives the planner once made
 * the patient history walk the whole table for everyone else (bench/HISTORY.md).
 */
export const SKEWED_PATIENT_SHARE = 0.1;
export const SKEWED_PATIENT_REFERENCE = "benchskew";
/** The pharmacist every seeded decision names (a user row of its own: decisions reference users). */
const SEED_USER_ID = "usr_benchseed";

/** The columns both seeds fill, in the order of their SELECT lists. */
const INSERT_TRANSFERS = `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, active_rx_key,
  patient_first_name, patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi,
  rx_number, drug_name, drug_strength, has_allergies, drug_schedule, drug_substance_key, patient_reference_id,
  received_at, decided_at, request, response, response_id, check_flags, warns_from)`;

/**
 * The decisions of the transfers just inserted (RETURNING id, status, decided_at): an approval for each
 * CONFIRMED, a rejection for each REJECTED, as the transfer log and its export read them.
 */
const DECISIONS_OF_INSERTED = `
  INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, response)
  SELECT id, (CASE WHEN status = 'REJECTED' THEN 'REJECTED' ELSE 'APPROVED' END)::"Decision", '${SEED_USER_ID}',
         'Bench Seed, PharmD', decided_at, CASE WHEN status = 'REJECTED' THEN 'E' || (length(id) % 5) END, '{}'::jsonb
    FROM inserted WHERE status <> 'RECEIVED'`;

/**
 * Adds transfers up to `total` in batches: ~2 % pending, the rest decided (0–299 minutes after arrival, with
 * their decision rows), spread over a year; of them, SKEWED_PATIENT_SHARE belong to one patient (the intake
 * template's name and date of birth, one sender's id).
 */
export async function seedTransfers(databaseUrl: string, partnerId: string, total: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    await client.query(
      `INSERT INTO users (id, email, name, password_hash, role)
       VALUES ('${SEED_USER_ID}', 'seed@bench.test', 'Bench Seed, PharmD', 'x', 'pharmacist') ON CONFLICT DO NOTHING`,
    );
    const request = buildTransferRequest();
    const template = JSON.stringify(request);
    // The review checks as the intake stores them: the template's, and for the rows seeded as Schedule IV
    // the template's with the drug at C-IV (its sender's date is then past the 6-month legal expiry).
    const options = { earlyRefillAllowance: DEFAULT_EARLY_REFILL_ALLOWANCE };
    const checks = classifyTransfer(request, DEFAULT_STORE_RULES, new Date(), options);
    const asIv = { ...DEFAULT_STORE_RULES, extraSchedules: [{ substance: "atorvastatin", schedule: "IV" as const }] };
    const ivChecks = classifyTransfer(request, asIv, new Date(), options);
    const checkColumns = [checks.checkFlags, checks.warnsFrom];
    await seedSkewedPatient(client, partnerId, Math.round(total * SKEWED_PATIENT_SHARE), total, template, checkColumns);
    const have = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers")).rows[0]!.n);
    const batch = 100_000;
    for (let from = have + 1; from <= total; from += batch) {
      const to = Math.min(total, from + batch - 1);
      const done = progress(
        `seeding transfers ${from.toLocaleString()}–${to.toLocaleString()} of ${total.toLocaleString()}`,
        1,
      );
      await client.query(
        `WITH inserted AS (
         ${INSERT_TRANSFERS}
         SELECT 'trf_bench' || lpad(i::text, 9, '0'), $1, 'bench-' || i, md5(i::text),
                s.status::"TransferStatus", CASE WHEN s.status <> 'REJECTED' THEN 'bench:' || i END,
                initcap(f.name), initcap(l.name), l.name || ' ' || f.name, date '1940-01-01' + (i * 7919 % 25000)::int,
                '1843501234', 'Bench Sender Pharmacy', '1245319599', 'RXB' || i, 'Atorvastatin', '20 mg',
                i % 3 = 0, CASE WHEN i % 5 = 0 THEN 'IV' ELSE 'none' END, 'atorvastatin', 'benchpat' || (i % 200000), a.at,
                CASE WHEN s.status <> 'RECEIVED' THEN least(now(), a.at + make_interval(mins => (i % 300)::int)) END,
                $3::jsonb, '{}'::jsonb, 'rsp_bench' || i,
                CASE WHEN i % 5 = 0 THEN $10::text[] ELSE $8::text[] END, CASE WHEN i % 5 = 0 THEN $11::date ELSE $9::date END
           FROM generate_series($4::bigint, $5::bigint) AS i
           CROSS JOIN LATERAL (SELECT CASE WHEN i % 50 = 0 THEN 'RECEIVED' WHEN i % 12 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END AS status) s
           CROSS JOIN LATERAL (SELECT now() - make_interval(secs => (($2::bigint - i) * 31536000.0 / $2::bigint)) AS at) a
           CROSS JOIN LATERAL (SELECT ($6::text[])[1 + (i % ${FIRST_NAMES.length})] AS name) f
           CROSS JOIN LATERAL (SELECT ($7::text[])[1 + ((i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})] AS name) l
         RETURNING id, status, decided_at)
         ${DECISIONS_OF_INSERTED}`,
        [
          partnerId,
          total,
          template,
          from,
          to,
          FIRST_NAMES,
          LAST_NAMES,
          ...checkColumns,
          ivChecks.checkFlags,
          ivChecks.warnsFrom,
        ],
      );
      done();
    }
    // The state a live table settles in (autovacuum runs after large inserts): hint bits and the visibility
    // map set, statistics fresh. Without it, autovacuum starts on the new rows in the middle of the timings.
    await client.query("VACUUM (ANALYZE) transfers, transfer_decisions");
  } finally {
    await client.end();
  }
  return Math.round((Date.now() - started) / 1000);
}

/** Tops the skewed patient up to `count` transfers, spread over the same year as the rest. */
async function seedSkewedPatient(
  client: pg.Client,
  partnerId: string,
  count: number,
  total: number,
  template: string,
  checkColumns: unknown[],
): Promise<void> {
  const have = Number(
    (
      await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE patient_reference_id = $1", [
        SKEWED_PATIENT_REFERENCE,
      ])
    ).rows[0]!.n,
  );
  if (have >= count) return;
  const done = progress(`seeding ${(count - have).toLocaleString()} transfers of one patient (skew)`, 1);
  await client.query(
    `WITH inserted AS (
     ${INSERT_TRANSFERS}
     SELECT 'trf_skew' || lpad(i::text, 9, '0'), $1, 'skew-' || i, md5('skew' || i),
            s.status::"TransferStatus", CASE WHEN s.status <> 'REJECTED' THEN 'skew:' || i END,
            'Maria', 'Alvarez', 'alvarez maria', date '1958-03-14',
            '1843501234', 'Bench Sender Pharmacy', '1245319599', 'RXS' || i, 'Atorvastatin', '20 mg',
            true, 'none', 'atorvastatin', $2, a.at,
            CASE WHEN s.status <> 'RECEIVED' THEN least(now(), a.at + make_interval(mins => (i % 300)::int)) END,
            $4::jsonb, '{}'::jsonb, 'rsp_skew' || i, $7::text[], $8::date
       FROM generate_series($5::bigint, $6::bigint) AS i
       CROSS JOIN LATERAL (SELECT CASE WHEN i % 50 = 0 THEN 'RECEIVED' WHEN i % 12 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END AS status) s
       CROSS JOIN LATERAL (SELECT now() - make_interval(secs => (i * 31536000.0 / $3::bigint)) AS at) a
     RETURNING id, status, decided_at)
     ${DECISIONS_OF_INSERTED}`,
    [partnerId, SKEWED_PATIENT_REFERENCE, count, template, have + 1, count, ...checkColumns],
  );
  done();
}
