-- Drug knowledge (lib/drugs): the schedule comes from the drug, not from the prescriber's DEA number.
-- transfers.drug_schedule and allergy_alert are filled for existing rows by the start-up classification (lib/transfers/classify-transfers.ts).

-- DropIndex
DROP INDEX "transfers_status_partner_id_has_allergies_prescriber_dea_idx";

-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "extra_schedules" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "rx_expiry_months" INTEGER NOT NULL DEFAULT 12;

-- AlterTable
ALTER TABLE "transfer_decisions" ADD COLUMN     "allergy_warnings" JSONB,
ADD COLUMN     "legal_expiry" TIMESTAMPTZ(3),
ADD COLUMN     "one_time_transfer_confirmed" BOOLEAN,
ADD COLUMN     "pharmacist_license" TEXT,
ADD COLUMN     "schedule_basis" TEXT;

-- AlterTable
ALTER TABLE "transfers" DROP COLUMN "prescriber_dea",
ADD COLUMN     "allergy_alert" TEXT,
ADD COLUMN     "drug_schedule" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "license_number" TEXT;

-- CreateIndex
CREATE INDEX "transfers_status_partner_id_has_allergies_drug_schedule_idx" ON "transfers"("status", "partner_id", "has_allergies", "drug_schedule");

-- CreateIndex
CREATE INDEX "transfer_decisions_decided_at_transfer_id_idx" ON "transfer_decisions"("decided_at", "transfer_id");
