-- The overview's rollups, kept by the worker (lib/overview/roll-up-overview.ts). Each day's rows are replaced
-- whole in one transaction, never incremented, so a restart or a second worker cannot count anything twice.

-- CreateTable
CREATE TABLE "overview_rollup_state" (
    "time_zone" TEXT NOT NULL,
    "complete_through" DATE NOT NULL,
    "callbacks_swept_at" TIMESTAMPTZ(3),

    CONSTRAINT "overview_rollup_state_pkey" PRIMARY KEY ("time_zone")
);

-- CreateTable
CREATE TABLE "overview_hours" (
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "hour" SMALLINT NOT NULL,
    "arrivals" INTEGER NOT NULL,

    CONSTRAINT "overview_hours_pkey" PRIMARY KEY ("time_zone","day","hour")
);

-- CreateTable
CREATE TABLE "overview_days" (
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "decided" INTEGER NOT NULL,
    "median_minutes" DOUBLE PRECISION,
    "p90_minutes" DOUBLE PRECISION,
    "missing" INTEGER NOT NULL,

    CONSTRAINT "overview_days_pkey" PRIMARY KEY ("time_zone","day")
);

-- CreateTable
CREATE TABLE "overview_outcomes" (
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "decision" "Decision" NOT NULL,
    "error_type" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL,

    CONSTRAINT "overview_outcomes_pkey" PRIMARY KEY ("time_zone","day","decision","error_type")
);

-- CreateTable
CREATE TABLE "overview_partner_days" (
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "partner_id" TEXT NOT NULL,
    "delivered" INTEGER NOT NULL,
    "pending" INTEGER NOT NULL,
    "retrying" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "refused" INTEGER NOT NULL,

    CONSTRAINT "overview_partner_days_pkey" PRIMARY KEY ("time_zone","day","partner_id")
);

-- CreateTable
CREATE TABLE "overview_callback_delays" (
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "partner_id" TEXT NOT NULL,
    "tenths" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "overview_callback_delays_pkey" PRIMARY KEY ("time_zone","day","partner_id","tenths")
);
