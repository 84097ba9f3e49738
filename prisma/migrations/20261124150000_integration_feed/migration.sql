-- Hand-off to dispensing systems (issue 17, part 3): integration keys (hashed, shown once, revocable) and
-- the feed of approved transfers in commit order. Existing approvals are fed in decision order.

-- CreateTable
CREATE TABLE "integration_keys" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "integration_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integration_feed" (
    "seq" BIGSERIAL NOT NULL,
    "transfer_id" TEXT NOT NULL,
    "approved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integration_feed_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "integration_keys_hash_key" ON "integration_keys"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "integration_feed_transfer_id_key" ON "integration_feed"("transfer_id");

-- Backfill: the approvals made before this migration, oldest first.
INSERT INTO "integration_feed" ("transfer_id", "approved_at")
SELECT "transfer_id", "decided_at" FROM "transfer_decisions" WHERE "decision" = 'APPROVED' ORDER BY "decided_at", "transfer_id";
