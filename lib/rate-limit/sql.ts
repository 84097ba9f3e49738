// The rate limits' statement (typed: lib/db/kysely.ts): a lease of a window's budget taken in one statement.
// It runs for every lease of every busy credential, so it is compiled once (lib/db/compiled-statement.ts) and
// prepared once per connection (consume-rate-limit.ts).
import { sql } from "kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

/**
 * The bucket inserted, or bumped by `size`, its count restarted in a new window (the database's clock
 * decides the window): the count after this lease and the window's start.
 */
export const takeLeaseStatement = compiledStatement((v: { key: string; windowSeconds: number; size: number }) => {
  const size = sql<number>`${v.size}::int`;
  return sqlDb()
    .insertInto("rate_limit_buckets")
    .values({
      key: sql<string>`${v.key}::text`,
      window_start: sql<Date>`to_timestamp(floor(extract(epoch FROM now()) / ${v.windowSeconds}::int) * ${v.windowSeconds}::int)`,
      count: size,
    })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({
        count: eb
          .case()
          .when("rate_limit_buckets.window_start", "=", eb.ref("excluded.window_start"))
          .then(sql<number>`rate_limit_buckets.count + ${size}`)
          .else(size)
          .end(),
        window_start: eb.ref("excluded.window_start"),
      })),
    )
    .returning(["count", "window_start"]);
});
