// A callback as the worker reads it, with its partner's delivery settings: the columns every claim selects,
// and the plain locking reads of the worker's slower path (claim-callback-attempt.ts).
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import type { CallbackStatus } from "@/generated/kysely/enums";
import { sqlDb, type Database, type RowOf } from "@/lib/db/kysely";

/** A value as a timestamptz parameter. */
export const tstz = (at: Date | null) => sql<Date>`${at}::timestamptz`;

export function callbackColumns(eb: ExpressionBuilder<Database & { c: Database["callbacks"] }, "c">) {
  return [
    "c.id",
    "c.transfer_id",
    "c.partner_id",
    "c.payload",
    eb.cast<CallbackStatus>("c.status", "text").as("status"),
    "c.attempt_count",
    "c.next_attempt_at",
    "c.created_at",
    // The database's clock, which graphile-worker's run_at is compared with.
    sql<Date>`clock_timestamp()`.as("db_now"),
  ] as const;
}

export const PARTNER_COLUMNS = [
  "p.callback_url",
  "p.webhook_secret",
  "p.previous_webhook_secret",
  "p.previous_secret_expires_at",
  "p.outbound_header_name",
  "p.outbound_header_value",
] as const;

/** The callback, locked. */
export function lockCallback(callbackId: string) {
  return sqlDb()
    .selectFrom("callbacks as c")
    .select((eb) => callbackColumns(eb))
    .where("c.id", "=", callbackId)
    .forUpdate();
}

/** The callback, locked, with its partner's delivery settings (null when the partner is missing). */
export function lockCallbackForAttempt(callbackId: string) {
  return sqlDb()
    .selectFrom("callbacks as c")
    .leftJoin("partners as p", "p.id", "c.partner_id")
    .select((eb) => [...callbackColumns(eb), ...PARTNER_COLUMNS])
    .where("c.id", "=", callbackId)
    .forUpdate(["c"]);
}

/** A callback's columns as the worker reads them. */
export type CallbackRow = RowOf<ReturnType<typeof lockCallback>>;

/** A partner's delivery settings. */
export type PartnerRow = Pick<
  Selectable<Database["partners"]>,
  | "callback_url"
  | "webhook_secret"
  | "previous_webhook_secret"
  | "previous_secret_expires_at"
  | "outbound_header_name"
  | "outbound_header_value"
>;
