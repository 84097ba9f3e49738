-- The queue's name search reads each name and status in arrival order, stopping at the page size
-- (lib/transfers/queries/queue-search-page.ts): the patient_search index gains the status and the keyset
-- columns. Its leading column still serves the prefix LIKE. Built over the existing rows here.
DROP INDEX "transfers_patient_search_idx";
CREATE INDEX "transfers_patient_search_status_received_at_id_idx" ON "transfers"("patient_search", "status", "received_at", "id");
