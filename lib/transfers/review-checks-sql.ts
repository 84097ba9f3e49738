// The review checks that can warn on a stored transfer, in SQL, for the queue's "warnings" filter.
import { Prisma } from "@/generated/prisma/client";
import { DAW_NO_SUBSTITUTION, DAW_SUBSTITUTION_ALLOWED, EXPIRY_WARNING_DAYS, MAX_UNITS_PER_DAY } from "@/lib/transfers/review-checks";

const DAY_MS = 86_400_000;

/**
 * The checks that can warn on a stored transfer, as a SQL condition over `t.request` (alias `t`), for
 * the queue's "warnings" filter: expiry within EXPIRY_WARNING_DAYS (or past), a dispensed NDC that
 * differs, a DAW / substitution conflict, quantity problems, a prescriber DEA whose second letter is not
 * the last name's initial. (Check-digit and refill failures cannot reach the queue: the intake refuses
 * them.) Not indexable: with LIMIT it stops at the first page of matches.
 */
export function warningPredicateSql(now: Date): Prisma.Sql {
  const soon = new Date(now.getTime() + EXPIRY_WARNING_DAYS * DAY_MS);
  return Prisma.sql`(
    (t.request->'prescription'->>'expirationDate')::timestamptz < ${soon}
    OR (t.request->'prescription'->>'dispensedNDC' IS NOT NULL
        AND t.request->'prescription'->>'dispensedNDC' <> t.request->'prescription'->>'prescribedNDC')
    OR ((t.request->'prescription'->>'dawCode')::int IN (${Prisma.join(DAW_NO_SUBSTITUTION)})
        AND (t.request->'prescription'->>'canSubstitute')::boolean)
    OR ((t.request->'prescription'->>'dawCode')::int IN (${Prisma.join(DAW_SUBSTITUTION_ALLOWED)})
        AND NOT (t.request->'prescription'->>'canSubstitute')::boolean)
    OR (t.request->'prescription'->>'quantityDispensed')::numeric > (t.request->'prescription'->>'quantityWritten')::numeric
    OR (t.request->'prescription'->>'drugForm' ~* '(tab|cap)'
        AND (t.request->'prescription'->>'daysSupply')::numeric > 0
        AND (t.request->'prescription'->>'quantityDispensed')::numeric / (t.request->'prescription'->>'daysSupply')::numeric > ${MAX_UNITS_PER_DAY})
    OR (t.request->'prescriber'->>'dea' ~ '^[ABFGM][A-Z]'
        AND substr(t.request->'prescriber'->>'dea', 2, 1) <> upper(left(btrim(t.request->'prescriber'->'name'->>'lastName'), 1)))
  )`;
}
