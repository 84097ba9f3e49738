-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('pharmacist', 'admin');

-- CreateEnum
CREATE TYPE "TransferStatus" AS ENUM ('RECEIVED', 'CONFIRMED', 'REJECTED');

-- CreateTable
CREATE TABLE "stores" (
    "id" TEXT NOT NULL,
    "npi" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dea" TEXT,
    "address" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partners" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "npis" TEXT[],
    "callback_url" TEXT NOT NULL,
    "webhook_secret" TEXT NOT NULL,
    "suspended_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_clients" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_tokens" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL,
    "disabled_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfers" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "status" "TransferStatus" NOT NULL DEFAULT 'RECEIVED',
    "active_rx_key" TEXT,
    "patient_first_name" TEXT NOT NULL,
    "patient_last_name" TEXT NOT NULL,
    "patient_search" TEXT NOT NULL,
    "patient_dob" DATE NOT NULL,
    "sending_npi" TEXT NOT NULL,
    "sending_name" TEXT NOT NULL,
    "receiving_npi" TEXT NOT NULL,
    "rx_number" TEXT NOT NULL,
    "drug_name" TEXT NOT NULL,
    "drug_strength" TEXT NOT NULL,
    "has_allergies" BOOLEAN NOT NULL,
    "prescriber_dea" BOOLEAN NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "request" JSONB NOT NULL,
    "response" JSONB NOT NULL,
    "response_id" TEXT NOT NULL,
    "outcome" JSONB,

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stores_npi_key" ON "stores"("npi");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_partner_id_idx" ON "api_keys"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_clients_client_id_key" ON "oauth_clients"("client_id");

-- CreateIndex
CREATE INDEX "oauth_clients_partner_id_idx" ON "oauth_clients"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_tokens_hash_key" ON "oauth_tokens"("hash");

-- CreateIndex
CREATE INDEX "oauth_tokens_client_id_idx" ON "oauth_tokens"("client_id");

-- CreateIndex
CREATE INDEX "oauth_tokens_expires_at_idx" ON "oauth_tokens"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "transfers_active_rx_key_key" ON "transfers"("active_rx_key");

-- CreateIndex
CREATE INDEX "transfers_status_received_at_id_idx" ON "transfers"("status", "received_at", "id");

-- CreateIndex
CREATE INDEX "transfers_received_at_id_idx" ON "transfers"("received_at", "id");

-- CreateIndex
CREATE INDEX "transfers_partner_id_received_at_idx" ON "transfers"("partner_id", "received_at");

-- CreateIndex
CREATE INDEX "transfers_patient_search_idx" ON "transfers"("patient_search");

-- CreateIndex
CREATE INDEX "transfers_patient_dob_idx" ON "transfers"("patient_dob");

-- CreateIndex
CREATE INDEX "transfers_rx_number_idx" ON "transfers"("rx_number");

-- CreateIndex
CREATE UNIQUE INDEX "transfers_partner_id_request_id_key" ON "transfers"("partner_id", "request_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
