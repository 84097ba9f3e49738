-- Returning patients and duplicate therapy (issue 17): the keys the review screen's patient history matches on,
-- as indexed columns, so that it never reads the request JSON of other transfers.
--
-- patient_name_key: "<last>|<first>" normalised the same way for every writer, by this trigger:
--   1. Unicode canonical decomposition (NFD), then combining marks U+0300–U+036F dropped ("Müller" → "Muller",
--      "José" → "Jose");
--   2. lower case;
--   3. whitespace and punctuation dropped: ASCII punctuation !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~, the no-break
--      space, Unicode dashes U+2010–U+2015 and quotation marks U+2018–U+201F ("O'Brien" = "OBrien" = "o brien",
--      "Smith-Jones" = "Smith Jones"). Other letters and digits are kept as they are.
-- The history matches it together with patient_dob (a name match with another date of birth is not a match).
--
-- patient_reference_id: the sender's metadata.patientReferenceID, copied from the request by the trigger
-- when the writer does not give it. It identifies a patient only within one sender, so it is matched with
-- partner_id.
--
-- drug_substance_key: the drug's active substances by lib/drugs (intake, and the start-up classification for
-- rows stored before this migration: lib/transfers/classify-transfer.ts), for the duplicate-therapy warning.
CREATE FUNCTION transfers_patient_name_part(part TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
           lower(regexp_replace(normalize(part, NFD), '[\u0300-\u036f]', '', 'g')),
           '[[:space:]!-/:-@\u005b-\u0060{-~\u00a0\u2010-\u2015\u2018-\u201f]', '', 'g')
$$;

ALTER TABLE "transfers" ADD COLUMN "patient_name_key" TEXT NOT NULL DEFAULT '',
ADD COLUMN "patient_reference_id" TEXT,
ADD COLUMN "drug_substance_key" TEXT;

CREATE FUNCTION transfers_set_patient_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.patient_name_key := transfers_patient_name_part(NEW.patient_last_name) || '|' || transfers_patient_name_part(NEW.patient_first_name);
  IF NEW.patient_reference_id IS NULL THEN
    NEW.patient_reference_id := NEW.request->'metadata'->>'patientReferenceID';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER transfers_patient_keys BEFORE INSERT OR UPDATE OF patient_first_name, patient_last_name ON "transfers"
  FOR EACH ROW EXECUTE FUNCTION transfers_set_patient_keys();

-- Backfill (the trigger fires on UPDATE OF the name columns).
UPDATE "transfers" SET "patient_last_name" = "patient_last_name";

CREATE INDEX "transfers_patient_name_key_patient_dob_idx" ON "transfers"("patient_name_key", "patient_dob");

CREATE INDEX "transfers_partner_id_patient_reference_id_idx" ON "transfers"("partner_id", "patient_reference_id");
