// The stores' statements that Prisma's API cannot say (row locks), typed (lib/db/kysely.ts); run inside the
// caller's Prisma transaction with inPrismaTx.
import { sqlDb } from "@/lib/db/kysely";

/** The store's rules, locked, so that an audit record's "from" is what a change replaced. */
export function lockStoreRules(storeId: string) {
  return sqlDb()
    .selectFrom("stores")
    .select(["extra_schedules", "rx_expiry_months"])
    .where("id", "=", storeId)
    .forUpdate();
}
