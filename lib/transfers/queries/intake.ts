// The intake's statements (receive-transfer.ts): the transfer's insert, plain or with the API key checked in
// the same statement, and the two reads that explain a conflicting insert. Typed with Kysely (lib/db/kysely.ts);
// the inserts are hot, so each is built and compiled once (lib/db/compiled-statement.ts) and prepared once per
// connection. The immediate-confirmation path builds on transferSource (lib/immediate-confirm/queries/store-and-judge.ts).
import { sql, type RawBuilder } from "kysely";
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { selectValidApiKey } from "@/lib/auth/sql";
import { sqlDb } from "@/lib/db/kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import type { TransferResponse } from "@/lib/interface";

/**
 * A new transfer's columns as the intake writes them. Every value is cast in the statement, because the inserts
 * take them in a SELECT list, where PostgreSQL does not infer the columns' types.
 */
export type TransferInsert = {
  id: string;
  partner_id: string;
  request_id: string;
  content_hash: string;
  active_rx_key: string;
  patient_first_name: string;
  patient_last_name: string;
  patient_search: string;
  /** YYYY-MM-DD */
  patient_dob: string;
  sending_npi: string;
  sending_name: string;
  receiving_npi: string;
  rx_number: string;
  drug_name: string;
  drug_strength: string;
  has_allergies: boolean;
  drug_schedule: string | null;
  allergy_alert: string | null;
  drug_substance_key: string;
  check_flags: string[];
  warns_from: string | null;
  received_at: Date;
  /** JSON text */
  request: string;
  /** JSON text */
  response: string;
  response_id: string;
};

/** Each column's SQL type, for its cast; a column renamed or dropped in the schema fails the typecheck here. */
const COLUMN_TYPES = {
  id: "text",
  partner_id: "text",
  request_id: "text",
  content_hash: "text",
  active_rx_key: "text",
  patient_first_name: "text",
  patient_last_name: "text",
  patient_search: "text",
  patient_dob: "date",
  sending_npi: "text",
  sending_name: "text",
  receiving_npi: "text",
  rx_number: "text",
  drug_name: "text",
  drug_strength: "text",
  has_allergies: "boolean",
  drug_schedule: "text",
  allergy_alert: "text",
  drug_substance_key: "text",
  check_flags: "text[]",
  warns_from: "date",
  received_at: "timestamptz",
  request: "jsonb",
  response: "jsonb",
  response_id: "text",
} as const satisfies Record<keyof TransferInsert, string>;

// Typed as the row's keys, not narrowed to the table's: `.columns()` below then refuses a key the table lacks.
const COLUMNS = Object.keys(COLUMN_TYPES) as (keyof TransferInsert)[];

/**
 * The row's values as a SELECT list in TRANSFER_COLUMNS' order (status RECEIVED unless `override` says
 * otherwise), for `INSERT INTO transfers (…) SELECT … FROM <one row>`.
 */
export function transferSource(
  row: TransferInsert,
  override: Partial<Record<(typeof TRANSFER_COLUMNS)[number], RawBuilder<unknown>>> = {},
): RawBuilder<unknown>[] {
  return [
    ...COLUMNS.map((c) => override[c] ?? sql`${row[c]}::${sql.raw(COLUMN_TYPES[c])}`),
    override.status ?? sql`'RECEIVED'::"TransferStatus"`,
  ];
}

/** The insert's column list, in transferSource's order. */
export const TRANSFER_COLUMNS = [...COLUMNS, "status"] as const;

const insertPlain = compiledStatement((row: TransferInsert) =>
  sqlDb()
    .insertInto("transfers")
    .columns(TRANSFER_COLUMNS)
    .expression(sqlDb().selectNoFrom(transferSource(row).map((v, i) => v.as(`c${i}`))))
    .onConflict((oc) => oc.doNothing())
    .returning("id"),
);

/** Stores the transfer as RECEIVED; no row when a unique index refused it (a replay or a duplicate). */
export function insertTransfer(row: TransferInsert) {
  return insertPlain(row);
}

const insertKeyChecked = compiledStatement((args: { row: TransferInsert; key: KeyArgs }) =>
  withValidKey(args.key)
    .insertInto("transfers")
    .columns(TRANSFER_COLUMNS)
    .expression((eb) => eb.selectFrom("valid_key").select(transferSource(args.row).map((v, i) => v.as(`c${i}`))))
    .onConflict((oc) => oc.doNothing())
    .returning("id"),
);

/**
 * Stores the transfer only if, in the same statement, the key is still exactly as it was found (valid, same
 * partner, same NPIs), and marks the key used at most once a minute. No row: nothing stored.
 */
export function insertTransferWithKeyCheck(row: TransferInsert, key: KnownApiKey) {
  return insertKeyChecked({ row, key: keyArgs(key) });
}

/** A known key's values as a statement shape takes them. */
export type KeyArgs = { keyHash: string; keyId: string; keyPartnerId: string; keyNpis: string[] };

export function keyArgs(key: KnownApiKey): KeyArgs {
  return { keyHash: key.hash, keyId: key.keyId, keyPartnerId: key.partnerId, keyNpis: key.npis };
}

/** valid_key (one row while the key is as it was found) and touched (last_used_at, at most once a minute). */
export function withValidKey(k: KeyArgs) {
  return sqlDb()
    .with("valid_key", () =>
      selectValidApiKey(k.keyHash)
        .where("k.id", "=", k.keyId)
        .where("k.partner_id", "=", k.keyPartnerId)
        .where("p.npis", "=", sql<string[]>`${k.keyNpis}::text[]`),
    )
    .with("touched", (db) =>
      db
        .updateTable("api_keys")
        .set({ last_used_at: sql<Date>`now()` })
        .where("id", "in", (eb) => eb.selectFrom("valid_key").select("valid_key.id"))
        .where((eb) =>
          eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`)]),
        ),
    );
}

/** The transfer this partner sent under this requestID, if any. */
export function selectSameRequest(partnerId: string, requestId: string) {
  return sqlDb()
    .selectFrom("transfers")
    .select(["id", "content_hash", sql<TransferResponse>`response`.as("response")])
    .where("partner_id", "=", partnerId)
    .where("request_id", "=", requestId);
}

/** The live transfer of this prescription (sending NPI + rxNumber), if any. */
export function selectLivePrescription(activeRxKey: string) {
  return sqlDb()
    .selectFrom("transfers")
    .select((eb) => ["id", eb.cast<string>("status", "text").as("status"), "partner_id"])
    .where("active_rx_key", "=", activeRxKey);
}
