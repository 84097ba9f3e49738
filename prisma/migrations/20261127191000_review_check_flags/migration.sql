-- The review checks computed on write (lib/transfers/classify-transfer.ts), for the queue's "warnings" filter:
-- check_flags, the ids of the checks that warn or fail whatever the day, and warns_from, the store's calendar
-- day from which the dated check (expiry) warns. The rules live in TypeScript only, so existing rows are not
-- filled here: they stay NULL (the filter shows them, as not yet checked) until the start-up classification
-- (scripts/serve.ts: classifyStoredTransfers) fills them, in batches, before the server answers.

-- AlterTable
ALTER TABLE "transfers" ADD COLUMN     "check_flags" TEXT[],
ADD COLUMN     "warns_from" DATE;
