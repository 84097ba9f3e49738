import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

type Values = { id: string; at: Date; ids: string[]; row: { hash: string; chain: number } };

const select = compiledStatement((v: Values) =>
  sqlDb()
    .selectFrom("callbacks")
    .select(["id", sql<number>`${7}::int`.as("seven")])
    .where("id", "=", v.id)
    .where("created_at", "<", v.at)
    .where((eb) => eb.or([eb("id", "=", sql<string>`any(${v.ids}::text[])`), eb("partner_id", "=", v.row.hash)]))
    .where("attempt_count", "=", v.row.chain)
    .where("transfer_id", "=", v.id),
);

describe("compiledStatement", () => {
  it("answers the statement the builder makes, with each call's values in their places", () => {
    const at = new Date("2026-01-02T03:04:05Z");
    const values: Values = { id: "cb_1", at, ids: ["a", "b"], row: { hash: "h", chain: 3 } };
    const built = sqlDb()
      .selectFrom("callbacks")
      .select(["id", sql<number>`${7}::int`.as("seven")])
      .where("id", "=", values.id)
      .where("created_at", "<", values.at)
      .where((eb) => eb.or([eb("id", "=", sql<string>`any(${values.ids}::text[])`), eb("partner_id", "=", "h")]))
      .where("attempt_count", "=", 3)
      .where("transfer_id", "=", values.id)
      .compile();
    const first = select(values);
    expect(first.sql).toBe(built.sql);
    expect(first.parameters).toEqual(built.parameters);
    const second = select({ id: "cb_2", at, ids: [], row: { hash: "k", chain: 9 } });
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual([7, "cb_2", at, [], "k", 9, "cb_2"]);
  });
});
