-- Approvals no longer number their feed entry under a lock held to COMMIT (issue 19): they queue it here, and
-- the feed's readers number the committed entries one numberer at a time (lib/integration/feed-entries.ts).

-- CreateTable
CREATE TABLE "integration_feed_pending" (
    "transfer_id" TEXT NOT NULL,
    "approved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integration_feed_pending_pkey" PRIMARY KEY ("transfer_id")
);
