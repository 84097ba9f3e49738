// The review checks that can warn on a stored transfer, in SQL, for the queue's "warnings" filter.
import { Prisma } from "@/generated/prisma/client";
import { CONTROLLED_EXPIRY_MONTHS, MAX_CONTROLLED_REFILLS } from "@/lib/drugs";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { DEFAULT_EARLY_REFILL_ALLOWANCE, EXPIRY_WARNING_DAYS } from "@/lib/transfers/review-checks-fills";
import {
  DAW_NO_SUBSTITUTION,
  DAW_SUBSTITUTION_ALLOWED,
  MAX_UNITS_PER_DAY,
} from "@/lib/transfers/review-checks-product";

/**
 * The checks that can warn on a stored transfer, as a SQL condition over `t.request` (alias `t`), for
 * the queue's "warnings" filter: a Schedule III-V prescription never filled, expiry within EXPIRY_WARNING_DAYS (or past), a dispensed NDC that
 * differs, a DAW / substitution conflict, quantity problems, a prescriber DEA whose second letter is not
 * the last name's initial; and the drug's checks from the columns classified at intake (drug_schedule,
 * allergy_alert: drug-review.ts): Schedule II or a drug not in the tables, an allergy cross-check warning, a
 * controlled drug without a prescriber DEA number, a legal expiry passed or earlier than the sender's, and
 * Schedule III-IV refills past the federal limit; a fill history that cannot be true. (Check-digit and refill-arithmetic failures cannot reach
 * the queue: the intake refuses them.) Not indexable: with LIMIT it stops at the first page of matches.
 */
export function warningPredicateSql(now: Date, earlyRefillAllowance = DEFAULT_EARLY_REFILL_ALLOWANCE): Prisma.Sql {
  const rx = Prisma.sql`t.request->'prescription'`;
  // The store's calendar day, and the sender's instants read as its days (drug-review.ts): never UTC's.
  const zone = Prisma.sql`COALESCE((SELECT s.time_zone FROM stores s WHERE s.npi = t.receiving_npi), 'UTC')`;
  const today = Prisma.sql`(${now}::timestamptz AT TIME ZONE ${zone})::date`;
  const dayOf = (field: string) => Prisma.sql`((${rx}->>${field})::timestamptz AT TIME ZONE ${zone})::date`;
  const senderExpiry = dayOf("expirationDate");
  const legalExpiry = Prisma.sql`(left(${rx}->>'writtenDate', 10)::date + make_interval(months => CASE
      WHEN t.drug_schedule IN ('III', 'IV') THEN ${CONTROLLED_EXPIRY_MONTHS}
      ELSE COALESCE((SELECT s.rx_expiry_months FROM stores s WHERE s.npi = t.receiving_npi), ${DEFAULT_STORE_RULES.rxExpiryMonths}) END))::date`;
  const refillsAfterFirst = Prisma.sql`((${rx}->>'refillsAuthorized')::int - 1)`;
  // Fills the refill counts say happened (review-checks.ts fillHistoryCheck).
  const fills = Prisma.sql`((${rx}->>'refillsAuthorized')::int - (${rx}->>'refillsRemaining')::int)`;
  return Prisma.sql`(
    t.drug_schedule IN ('II', 'unknown')
    OR t.allergy_alert IS NOT NULL
    OR (t.drug_schedule IN ('II', 'III', 'IV', 'V') AND t.request->'prescriber'->>'dea' IS NULL)
    OR (t.drug_schedule IN ('III', 'IV', 'V') AND ${rx}->>'firstFilledDate' IS NULL)
    OR ${senderExpiry} > ${legalExpiry}
    OR ${today} > ${legalExpiry}
    OR ${senderExpiry} - ${today} < ${EXPIRY_WARNING_DAYS}
    OR (t.drug_schedule IN ('III', 'IV') AND (${refillsAfterFirst} > ${MAX_CONTROLLED_REFILLS}
        OR (${rx}->>'firstFilledDate' IS NOT NULL
            AND least(${refillsAfterFirst}, ${MAX_CONTROLLED_REFILLS}) - (${refillsAfterFirst} - (${rx}->>'refillsRemaining')::int) <= 0)))
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
    OR (${fills} > 1 AND (${rx}->>'firstFilledDate' IS NULL OR ${rx}->>'lastFilledDate' IS NULL))
    OR (${fills} > 1 AND ${dayOf("lastFilledDate")} - ${dayOf("firstFilledDate")}
        < (${fills} - 1) * (${rx}->>'daysSupply')::numeric * ${1 - earlyRefillAllowance}::numeric)
    OR (t.request->'prescriber'->>'dea' ~ '^[ABFGM][A-Z]'
        AND substr(t.request->'prescriber'->>'dea', 2, 1) <> upper(left(btrim(t.request->'prescriber'->'name'->>'lastName'), 1)))
  )`;
}
