-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('pharmacist', 'admin');

-- CreateEnum
CREATE TYPE "TransferStatus" AS ENUM ('RECEIVED', 'CONFIRMED', 'REJECTED');

-- CreateEnum
CREATE TYPE "Decision" AS ENUM ('APPROVED', 'REJECTED');

-- CreateEnum
CREATE TYPE "CallbackStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED', 'GONE');

-- CreateTable
CREATE TABLE "stores" (
    "id" TEXT NOT NULL,
    "npi" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dea" TEXT,
    "address" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partners" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "npis" TEXT[],
    "callback_url" TEXT NOT NULL,
    "webhook_secret" TEXT NOT NULL,
    "previous_webhook_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "outbound_header_name" TEXT,
    "outbound_header_value" TEXT,
    "callback_failing_since" TIMESTAMPTZ(3),
    "callback_gone_at" TIMESTAMPTZ(3),
    "suspended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_clients" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_tokens" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failed_logins" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "last_login_at" TIMESTAMPTZ(3),
    "session_version" INTEGER NOT NULL DEFAULT 0,

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
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "request" JSONB NOT NULL,
    "response" JSONB NOT NULL,
    "response_id" TEXT NOT NULL,
    "outcome" JSONB,
    "claimed_by_id" TEXT,
    "claim_expires_at" TIMESTAMPTZ(3),
    "decided_at" TIMESTAMPTZ(3),
    "callback_status" "CallbackStatus",

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfer_decisions" (
    "transfer_id" TEXT NOT NULL,
    "decision" "Decision" NOT NULL,
    "user_id" TEXT NOT NULL,
    "pharmacist_name" TEXT NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "error_type" TEXT,
    "description" TEXT,
    "drug_schedule" TEXT,
    "note" TEXT,
    "local_rx_number" TEXT,
    "response" JSONB NOT NULL,

    CONSTRAINT "transfer_decisions_pkey" PRIMARY KEY ("transfer_id")
);

-- CreateTable
CREATE TABLE "callbacks" (
    "id" TEXT NOT NULL,
    "transfer_id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "CallbackStatus" NOT NULL DEFAULT 'PENDING',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_status_code" INTEGER,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "callbacks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "callback_attempts" (
    "id" BIGSERIAL NOT NULL,
    "callback_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "error" TEXT,
    "latency_ms" INTEGER,
    "manual" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "callback_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_id" TEXT,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "transfer_id" TEXT,
    "client_address" TEXT,
    "details" JSONB,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_buckets" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("key")
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

-- CreateIndex
CREATE UNIQUE INDEX "callbacks_transfer_id_key" ON "callbacks"("transfer_id");

-- CreateIndex
CREATE INDEX "callbacks_status_next_attempt_at_idx" ON "callbacks"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "callbacks_partner_id_created_at_idx" ON "callbacks"("partner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "callback_attempts_callback_id_attempt_number_key" ON "callback_attempts"("callback_id", "attempt_number");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_hash_key" ON "audit_events"("hash");

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");

-- CreateIndex
CREATE INDEX "audit_events_user_id_at_idx" ON "audit_events"("user_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_transfer_id_at_idx" ON "audit_events"("transfer_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_action_at_idx" ON "audit_events"("action", "at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_claimed_by_id_fkey" FOREIGN KEY ("claimed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_decisions" ADD CONSTRAINT "transfer_decisions_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_decisions" ADD CONSTRAINT "transfer_decisions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callbacks" ADD CONSTRAINT "callbacks_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callbacks" ADD CONSTRAINT "callbacks_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_callback_id_fkey" FOREIGN KEY ("callback_id") REFERENCES "callbacks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only records: a decision is the pharmacy's legal transfer record, and the audit log must show
-- every access as it happened. Neither may be changed or removed by the application (Prisma's schema
-- cannot express triggers; they live here, and the drift check ignores them).
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER transfer_decisions_append_only BEFORE UPDATE OR DELETE ON "transfer_decisions"
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION refuse_change();
