// The policy's statements: its facts (the policy with its owner and the store's drug rules) as intake's cache
// and the judging statement read them, and the locks a change of policy and intake take (typed:
// lib/db/kysely.ts).
import { sql, type Kysely } from "kysely";
import { sqlDb, type Database } from "@/lib/db/kysely";

/** The policy and the store's rules, as the cache and the transaction read them. */
export type PolicyFacts = {
  store_id: string;
  version: number;
  enabled: boolean;
  allow_listed_allergies: boolean;
  hourly_cap: number;
  /** Null when the owner is no longer an active pharmacist. */
  owner_name: string | null;
  owner_license: string | null;
  extra_schedules: unknown;
  rx_expiry_months: number;
  time_zone: string;
};

export function policyFacts(db: Kysely<Database>) {
  return db
    .selectFrom("immediate_confirm_policies as p")
    .innerJoin("stores as s", "s.id", "p.store_id")
    .leftJoin("users as u", (join) =>
      join
        .onRef("u.id", "=", "p.owner_user_id")
        .on("u.disabled_at", "is", null)
        .on("u.role", "=", sql.lit("pharmacist")),
    )
    .select([
      "p.store_id",
      "p.version",
      "p.enabled",
      "p.allow_listed_allergies",
      "p.hourly_cap",
      "u.name as owner_name",
      "u.license_number as owner_license",
      "s.extra_schedules",
      "s.rx_expiry_months",
      "s.time_zone",
      "s.npi",
    ]);
}

/** Every store with the policy on (intake's cache). */
export function selectEnabledPolicies(db: Kysely<Database>) {
  return policyFacts(db).where("p.enabled", "=", true);
}

/** The key of a store's policy lock (one per store, by NPI: what intake knows before it reads anything). */
export function policyLockKey(npi: string): string {
  return `immediate-policy:${npi}`;
}

/**
 * A change of policy takes the store's policy lock exclusively, intake shared: a change waits for the
 * judgments in flight and no judgment reads a policy half-changed. An advisory lock lives in the lock
 * manager's memory; a row's share lock would write the policy row on every transfer.
 */
export function lockPolicyExclusively(npi: string) {
  return sqlDb().selectNoFrom(
    sql<boolean>`pg_advisory_xact_lock(hashtextextended(${policyLockKey(npi)}::text, 0)) IS NULL`.as("locked"),
  );
}

/** A change of policy: the store row locked, so that concurrent changes get consecutive versions. */
export function lockStoreRow(storeId: string) {
  return sqlDb().selectFrom("stores").select("id").where("id", "=", storeId).forUpdate();
}
