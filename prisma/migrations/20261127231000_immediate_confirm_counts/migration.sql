-- CreateTable
CREATE TABLE "immediate_confirm_counts" (
    "store_id" TEXT NOT NULL,
    "bucket_start" TIMESTAMPTZ(3) NOT NULL,
    "shard" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "immediate_confirm_counts_pkey" PRIMARY KEY ("store_id","bucket_start","shard")
);

-- The confirmations already made count from the start: the last two hours' (the bound reads one hour and ten minutes).
INSERT INTO "immediate_confirm_counts" ("store_id", "bucket_start", "shard", "n")
SELECT "store_id", to_timestamp(floor(extract(epoch FROM "confirmed_at") / 600) * 600), 0, count(*)::int
  FROM "immediate_confirmations"
 WHERE "confirmed_at" > now() - interval '2 hours'
 GROUP BY 1, 2;
