-- The name search is a prefix LIKE on patient_search, which a btree index serves only under the C
-- collation. The service's own embedded databases are created with it; an operator's DATABASE_URL
-- database often is not (en-US), and the search then read the whole table. The column carries its own
-- collation now (its index is rebuilt with it). Prisma's schema cannot state a column collation, so this
-- lives here only.
ALTER TABLE "transfers" ALTER COLUMN "patient_search" TYPE TEXT COLLATE "C";
