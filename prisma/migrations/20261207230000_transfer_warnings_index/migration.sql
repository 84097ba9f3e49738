-- The first calendar day on which a transfer shows under the queue's "warnings" filter: -infinity when a check
-- flags it whatever the day, or it is not classified yet; else the day its dated check (expiry) starts to warn;
-- NULL when nothing ever flags it. lib/transfers/queries/queue.ts compares it with the store's day.
CREATE FUNCTION transfer_warnings_from(check_flags text[], warns_from date) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN check_flags IS NULL OR check_flags <> '{}' THEN '-infinity'::date ELSE warns_from END
$$;

-- The filter's counts and pages read only the transfers it can match, from this index, instead of every row of a
-- status with the filter applied to each (a million transfers with few warnings: all of them). Prisma's schema
-- language cannot state an index on an expression.
CREATE INDEX "transfers_status_warnings_from_idx" ON "transfers"("status", transfer_warnings_from("check_flags", "warns_from"));
