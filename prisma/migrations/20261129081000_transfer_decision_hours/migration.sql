-- The transfer log's counts (lib/transfers/queries/decided-log.ts): decisions per UTC hour, outcome and the
-- schedule the log filters on, so a period's total reads its whole hours here and only the partial hours at
-- its two ends from transfer_decisions. Kept exact by triggers in the writing transaction: decisions are
-- append-only (no UPDATE, DELETE or TRUNCATE: 20261122123246_init, 20261123170100_audit_hardening), and the
-- transfer's schedule, read where the decision has none, is moved between rows when it changes. Each hour's
-- count is kept in a few shards (the writing connection's), so that approvals made at the same time do not
-- wait on one row until each commits; a total sums them.

-- CreateTable
CREATE TABLE "transfer_decision_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "decision" "Decision" NOT NULL,
    "schedule" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "transfer_decision_hours_pkey" PRIMARY KEY ("hour","decision","schedule","shard")
);

-- The log's schedule ('' for none): the decision's ("CIV" → "IV"), else the transfer's as classified at intake.
CREATE FUNCTION transfer_log_schedule(decided text, intake text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(substr(decided, 2), intake, '')
$$;

CREATE FUNCTION count_inserted_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transfer_decision_hours AS h (hour, decision, schedule, shard, count)
  SELECT date_trunc('hour', n.decided_at, 'UTC'), n.decision, transfer_log_schedule(n.drug_schedule, t.drug_schedule),
         pg_backend_pid() % 8, count(*)
    FROM inserted_decisions n JOIN transfers t ON t.id = n.transfer_id
   GROUP BY 1, 2, 3
  ON CONFLICT (hour, decision, schedule, shard) DO UPDATE SET count = h.count + excluded.count;
  RETURN NULL;
END;
$$;

-- Once per statement: a bulk insert (a restore, the bench's seed) adds each hour's rows once.
CREATE TRIGGER transfer_decisions_count_hours AFTER INSERT ON "transfer_decisions"
  REFERENCING NEW TABLE AS inserted_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_decisions();

CREATE FUNCTION recount_rescheduled_decision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  SELECT decided_at, decision, drug_schedule INTO d FROM transfer_decisions WHERE transfer_id = NEW.id;
  IF NOT FOUND OR d.drug_schedule IS NOT NULL
     OR transfer_log_schedule(NULL, OLD.drug_schedule) = transfer_log_schedule(NULL, NEW.drug_schedule) THEN
    RETURN NULL;
  END IF;
  -- One less under the old schedule and one more under the new, both on this connection's shard (a shard's
  -- count may go below zero; the hour's sum is exact).
  INSERT INTO transfer_decision_hours AS h (hour, decision, schedule, shard, count)
  VALUES (date_trunc('hour', d.decided_at, 'UTC'), d.decision, transfer_log_schedule(NULL, OLD.drug_schedule),
          pg_backend_pid() % 8, -1),
         (date_trunc('hour', d.decided_at, 'UTC'), d.decision, transfer_log_schedule(NULL, NEW.drug_schedule),
          pg_backend_pid() % 8, 1)
  ON CONFLICT (hour, decision, schedule, shard) DO UPDATE SET count = h.count + excluded.count;
  RETURN NULL;
END;
$$;

-- A decided transfer's schedule is filled in later only where it had none (lib/transfers/queries/classification.ts).
CREATE TRIGGER transfers_recount_decision_hours AFTER UPDATE OF "drug_schedule" ON "transfers"
  FOR EACH ROW WHEN (OLD.drug_schedule IS DISTINCT FROM NEW.drug_schedule)
  EXECUTE FUNCTION recount_rescheduled_decision();

-- The rows again from the decisions: here for the decisions already written, and after a restore, which loads
-- tables with triggers off (lib/ops/restore-backup.ts).
CREATE FUNCTION rebuild_transfer_decision_hours() RETURNS void LANGUAGE sql AS $$
  DELETE FROM transfer_decision_hours;
  INSERT INTO transfer_decision_hours (hour, decision, schedule, shard, count)
  SELECT date_trunc('hour', d.decided_at, 'UTC'), d.decision, transfer_log_schedule(d.drug_schedule, t.drug_schedule),
         0, count(*)
    FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id
   GROUP BY 1, 2, 3;
$$;

SELECT rebuild_transfer_decision_hours();
