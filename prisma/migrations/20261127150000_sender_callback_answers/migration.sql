-- The sender's callback API answers RX_CALLBACK_SUCCESS or RX_CALLBACK_ERROR: a refusal gets a status of its
-- own, and each attempt keeps what the answer said. The sender also cuts a partner off above a failure rate
-- of its /v1 answers: those are counted per partner and minute.

-- AlterEnum
ALTER TYPE "CallbackStatus" ADD VALUE 'REFUSED';

-- AlterTable
ALTER TABLE "callback_attempts" ADD COLUMN     "response_excerpt" TEXT,
ADD COLUMN     "sender_error_description" TEXT,
ADD COLUMN     "sender_error_type" TEXT,
ADD COLUMN     "sender_response_type" TEXT;

-- CreateTable
CREATE TABLE "partner_answer_counts" (
    "partner_id" TEXT NOT NULL,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "client_errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "partner_answer_counts_pkey" PRIMARY KEY ("partner_id","minute")
);
