// A name-or-rxNumber search's page, bounded by the page size. The search matches four ways (queries/queue.ts,
// searchCondition): rxNumber, a "last first" name prefix, the same typed first name first, a drug name prefix.
// Read as one OR, the matching rows come off the prefix indexes in name order and every one of them is sorted
// by arrival to keep a page: a common surname is thousands of rows, more with every month of transfers. Read
// here, a name prefix is split into the distinct names it covers (one index descent each, a loose index scan
// of transfers(patient_search, status, received_at, id)), and each name and status is read in arrival order
// from the keyset on, stopping at the page size; the page is the first rows of those short runs and of the
// rxNumber's and the drug name's own ordered reads (a drug name is walked as the OR walked it). The cost
// follows the number of names the prefix covers, not the number of their transfers, up to NAMES_PER_PREFIX.
// Every rule is read with all of the page's other conditions, so the union holds the page's rows: the same
// rows in the same order as the OR.
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";
import type { QueueStatus } from "@/lib/transfers/queue";
import type { Condition, QueueEb } from "./queue";

type Direction = "asc" | "desc";

/**
 * A name prefix is read name by name for its first this many names only. One that covers more ("s" covers
 * thousands of names) is also walked whole in arrival order, as the OR was: its matches are then dense enough
 * that the walk finds a page soon. That walk runs only when the prefix covers more (a one-time filter).
 */
export const NAMES_PER_PREFIX = 32;

/**
 * Its values are used only as values (never compared or computed with), since a page's statement is compiled
 * once per shape with placeholders for them (queries/queue.ts).
 */
export type SearchPageIdsOptions = {
  rxNumber: string;
  /** The name as typed and, when it differs, with its last word moved first; the first is also a drug's prefix. */
  namePrefixes: readonly string[];
  /** The statuses of the phase read; each is its own run of the index. */
  statuses: readonly QueueStatus[];
  /** Every other condition of the page (filters, keyset) but the status and the search. */
  conditions: (eb: QueueEb) => Condition[];
  limit: number;
  direction: Direction;
};

/** The ids of the first `limit` rows of the search's page (their order is the page's to give). */
export function selectSearchPageIds(options: SearchPageIdsOptions) {
  const { rxNumber, namePrefixes, statuses, limit, direction } = options;
  const runs = statuses.flatMap((status) => [
    ...namePrefixes.flatMap((pattern) => [
      nameRuns(pattern, status, options),
      walk(status, options, (eb) =>
        eb.and([
          eb("t.patient_search", "like", pattern),
          eb(
            eb
              .selectFrom(
                namesOf(pattern)
                  .limit(NAMES_PER_PREFIX + 1)
                  .as("c"),
              )
              .select(sql<number>`count(*)::int`.as("n")),
            ">",
            NAMES_PER_PREFIX,
          ),
        ]),
      ),
    ]),
    walk(status, options, (eb) => eb("t.drug_search", "like", namePrefixes[0]!)),
    walk(status, options, (eb) => eb("t.rx_number", "=", rxNumber)),
  ]);
  // UNION, not UNION ALL: a row can match more than one way (a name that is also a drug's prefix).
  const [first, ...rest] = runs;
  const all = rest.reduce((union, run) => union.union(run), first!);
  return sqlDb()
    .selectFrom(all.as("r"))
    .select("r.id")
    .orderBy("r.received_at", direction)
    .orderBy("r.id", direction)
    .limit(limit);
}

/** The first `limit` rows of `status` that meet `match`, in arrival order. */
function walk(status: QueueStatus, options: SearchPageIdsOptions, match: (eb: QueueEb) => Condition) {
  const { conditions, limit, direction } = options;
  // A derived table: a UNION's operand cannot have its own ORDER BY … LIMIT unless parenthesised.
  return sqlDb()
    .selectFrom((db) =>
      db
        .selectFrom("transfers as t")
        .select(["t.received_at", "t.id"])
        .where((eb) => eb.and([match(eb), eb("t.status", "=", status), ...conditions(eb)]))
        .orderBy("t.received_at", direction)
        .orderBy("t.id", direction)
        .limit(limit)
        .as("k"),
    )
    .select(["k.received_at", "k.id"]);
}

/** For each of the first NAMES_PER_PREFIX names the prefix covers, its first rows of `status` in arrival order. */
function nameRuns(pattern: string, status: QueueStatus, options: SearchPageIdsOptions) {
  const { conditions, limit, direction } = options;
  return sqlDb()
    .selectFrom(namesOf(pattern).limit(NAMES_PER_PREFIX).as("n"))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("transfers as t")
          .select(["t.received_at", "t.id"])
          .where((w) =>
            w.and([
              w("t.patient_search", "=", w.ref("n.value")),
              w("t.status", "=", status),
              // The lateral's scope also holds `n`; the conditions name only `t`.
              ...conditions(w as unknown as QueueEb),
            ]),
          )
          .orderBy("t.received_at", direction)
          .orderBy("t.id", direction)
          .limit(limit)
          .as("k"),
      (join) => join.onTrue(),
    )
    .select(["k.received_at", "k.id"]);
}

/** The distinct names that match the LIKE prefix, in order, one index descent each. */
function namesOf(pattern: string) {
  return sqlDb()
    .withRecursive("v(value)", (db) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom("transfers as x")
            .select("x.patient_search as value")
            .where("x.patient_search", "like", pattern)
            .orderBy("x.patient_search")
            .limit(sql.lit(1))
            .as("first"),
        )
        // Nullable like the recursive step's subquery (null past the last value).
        .select((eb) => eb.ref("first.value").$castTo<string | null>().as("value"))
        .unionAll((db2) =>
          db2
            .selectFrom("v")
            .select((eb) =>
              eb
                .selectFrom("transfers as x")
                .select("x.patient_search")
                .where("x.patient_search", "like", pattern)
                .whereRef("x.patient_search", ">", "v.value")
                .orderBy("x.patient_search")
                .limit(sql.lit(1))
                .as("value"),
            )
            .where("v.value", "is not", null),
        ),
    )
    .selectFrom("v")
    .select((eb) => eb.ref("v.value").$castTo<string>().as("value"))
    .where("v.value", "is not", null);
}
