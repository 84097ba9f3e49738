// The policy simulation's sample (simulate-policy.ts; typed: lib/db/kysely.ts): a store's transfers of the last
// 7 days, newest first, as they were received.
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

export function selectRecentRequests(receivingNpi: string, limit: number) {
  return sqlDb()
    .selectFrom("transfers")
    .select(["request", "received_at"])
    .where("receiving_npi", "=", receivingNpi)
    .where("received_at", ">", sql<Date>`now() - interval '7 days'`)
    .orderBy("received_at", "desc")
    .limit(limit);
}
