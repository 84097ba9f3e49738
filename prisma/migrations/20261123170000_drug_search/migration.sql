-- The queue's search matches the drug name too ("omeprazole", "gaba"): a lower-case copy of drug_name with the
-- C collation, so that a prefix LIKE reads its btree index as patient_search does (migration
-- 20261122155640). A trigger keeps it from drug_name, so every writer (intake, the benchmark's and the
-- tests' bulk inserts) gets it without naming it. Prisma's schema states neither the collation nor the
-- trigger, so they live here only.
ALTER TABLE "transfers" ADD COLUMN "drug_search" TEXT COLLATE "C" NOT NULL DEFAULT '';

CREATE FUNCTION transfers_set_drug_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.drug_search := lower(NEW.drug_name);
  RETURN NEW;
END
$$;

CREATE TRIGGER transfers_drug_search BEFORE INSERT OR UPDATE OF drug_name ON "transfers"
  FOR EACH ROW EXECUTE FUNCTION transfers_set_drug_search();

UPDATE "transfers" SET "drug_search" = lower("drug_name");

CREATE INDEX "transfers_drug_search_idx" ON "transfers"("drug_search");
