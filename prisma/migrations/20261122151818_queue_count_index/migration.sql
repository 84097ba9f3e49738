-- CreateIndex
CREATE INDEX "transfers_status_partner_id_has_allergies_prescriber_dea_idx" ON "transfers"("status", "partner_id", "has_allergies", "prescriber_dea");
