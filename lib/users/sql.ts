// The users' statements that Prisma's API cannot say (row locks), typed (lib/db/kysely.ts); run inside the
// caller's Prisma transaction with inPrismaTx.
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

/** The user's licence number, locked, so that an audit record's "from" is the value a change replaced. */
export function lockUserLicense(userId: string) {
  return sqlDb().selectFrom("users").select("license_number").where("id", "=", userId).forUpdate();
}

/** The active admins, locked, so two concurrent changes cannot both remove "the other" last admin. */
export function lockActiveAdmins() {
  return sqlDb()
    .selectFrom("users")
    .select("id")
    .where("role", "=", sql.lit("admin" as const))
    .where("disabled_at", "is", null)
    .forUpdate();
}
