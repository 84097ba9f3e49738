// One lock per store's immediate-confirmation policy, keyed by the store's NPI (what intake knows before it
// reads anything): intake holds it shared while it judges a transfer, a change of policy exclusively, so a
// change waits for the judgments in flight and no judgment reads a policy half-changed. An advisory lock
// lives in the lock manager's memory; a row's share lock would write the policy row on every transfer.
import { Prisma } from "@/generated/prisma/client";

/** A select-list item that takes the lock for the rest of the transaction (it yields a boolean to ignore). */
export function policyLockSql(npi: string, mode: "shared" | "exclusive"): Prisma.Sql {
  const key = `immediate-policy:${npi}`;
  return mode === "shared"
    ? Prisma.sql`pg_advisory_xact_lock_shared(hashtextextended(${key}::text, 0)) IS NULL AS policy_locked`
    : Prisma.sql`pg_advisory_xact_lock(hashtextextended(${key}::text, 0)) IS NULL AS policy_locked`;
}
