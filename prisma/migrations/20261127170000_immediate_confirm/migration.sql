-- AlterTable
ALTER TABLE "transfers" ADD COLUMN "immediate_miss" TEXT;

-- CreateTable
CREATE TABLE "immediate_confirm_policies" (
    "store_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "owner_user_id" TEXT,
    "state" TEXT,
    "board_rule" TEXT,
    "allow_listed_allergies" BOOLEAN NOT NULL DEFAULT false,
    "hourly_cap" INTEGER NOT NULL DEFAULT 60,
    "verify_within_hours" INTEGER NOT NULL DEFAULT 4,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "immediate_confirm_policies_pkey" PRIMARY KEY ("store_id")
);

-- CreateTable
CREATE TABLE "immediate_confirmations" (
    "transfer_id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "policy_version" INTEGER NOT NULL,
    "owner_name" TEXT NOT NULL,
    "owner_license" TEXT,
    "confirmed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verified_by_id" TEXT,
    "verified_by_name" TEXT,
    "verified_license" TEXT,
    "verified_at" TIMESTAMPTZ(3),
    "concern_note" TEXT,
    "concern_at" TIMESTAMPTZ(3),
    "alerted_at" TIMESTAMPTZ(3),

    CONSTRAINT "immediate_confirmations_pkey" PRIMARY KEY ("transfer_id")
);

-- CreateIndex
CREATE INDEX "immediate_confirmations_store_id_confirmed_at_idx" ON "immediate_confirmations"("store_id", "confirmed_at");

-- CreateIndex
CREATE INDEX "immediate_confirmations_verified_at_confirmed_at_idx" ON "immediate_confirmations"("verified_at", "confirmed_at");
