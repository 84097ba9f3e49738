-- Alerts before the sender's 4-hour window closes (issue 17, part 2): per-store alert thresholds and opening
-- hours, and one row per transfer and threshold crossing. The primary key is what keeps two workers from
-- sending the same alert: a worker inserts the row and queues its email in one transaction.

-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "alert_thresholds_minutes" INTEGER[] DEFAULT ARRAY[120, 180]::INTEGER[],
ADD COLUMN     "opening_hours" JSONB,
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "transfer_alerts" (
    "transfer_id" TEXT NOT NULL,
    "threshold_minutes" INTEGER NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "email_status" TEXT NOT NULL,
    "email_attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "transfer_alerts_pkey" PRIMARY KEY ("transfer_id","threshold_minutes")
);

-- CreateIndex
CREATE INDEX "transfer_alerts_email_status_last_attempt_at_idx" ON "transfer_alerts"("email_status", "last_attempt_at");
