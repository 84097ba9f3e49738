-- The patient history reads each match rule's newest transfers from its own index, in order, and stops at the
-- page's limit (lib/transfers/patient-history-sql.ts): the rules' indexes gain (received_at, id), so that
-- neither a chronic patient's hundreds of fills nor a sender's reused patient id can make the planner walk the
-- whole table by received_at instead. The longer indexes answer the plain lookups the old ones did.
CREATE INDEX "transfers_patient_name_key_patient_dob_received_at_id_idx" ON "transfers"("patient_name_key", "patient_dob", "received_at", "id");

CREATE INDEX "transfers_partner_id_patient_reference_id_received_at_id_idx" ON "transfers"("partner_id", "patient_reference_id", "received_at", "id");

DROP INDEX "transfers_patient_name_key_patient_dob_idx";

DROP INDEX "transfers_partner_id_patient_reference_id_idx";
