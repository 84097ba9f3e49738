-- Audit chain partitions (issue 19).
--
-- One chain behind one advisory lock serialised every audited action (approvals, views, admin actions):
-- each waited for the one before it to commit. Records are now appended to one of a few chains
-- ("chain" 1..n), each with its own lock; rows written before this migration stay chain 0 and keep their
-- hashes. See lib/audit/record-audit-event.ts and docs/audit-chain.md for why this stays tamper-evident.
ALTER TABLE "audit_events" ADD COLUMN "chain" SMALLINT NOT NULL DEFAULT 0;

-- The last record of a chain, read under that chain's lock for every append.
CREATE INDEX "audit_events_chain_id_idx" ON "audit_events"("chain", "id");

-- Takes a chain's lock and returns that chain and the hash its next record links to, in one round trip.
-- A chain this transaction already holds is reused (a second record in one transaction never waits on a
-- second lock, so two transactions cannot deadlock on each other's chains); otherwise the first free chain
-- is taken, and only when all are busy does it wait, on the first. VOLATILE: in READ COMMITTED each
-- statement below takes a fresh snapshot, so the last hash is read after the lock is granted and sees the
-- previous holder's committed record. A chain's first record links to the last record of chain 0 (the
-- single chain before partitioning) or to the genesis hash: losing chain 0's tail is detected.
CREATE FUNCTION audit_chain_acquire(chains INTEGER) RETURNS TABLE (chain INTEGER, prev_hash TEXT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  picked INTEGER;
BEGIN
  SELECT l.objid::INTEGER INTO picked FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.classid = 7324002 AND l.objsubid = 2 AND l.pid = pg_backend_pid() AND l.granted
   LIMIT 1;
  IF picked IS NULL THEN
    FOR c IN 1..chains LOOP
      IF pg_try_advisory_xact_lock(7324002, c) THEN
        picked := c;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  IF picked IS NULL THEN
    picked := 1;
    PERFORM pg_advisory_xact_lock(7324002, picked);
  END IF;
  chain := picked;
  SELECT e.hash INTO prev_hash FROM audit_events e WHERE e.chain = picked ORDER BY e.id DESC LIMIT 1;
  IF prev_hash IS NULL THEN
    SELECT e.hash INTO prev_hash FROM audit_events e WHERE e.chain = 0 ORDER BY e.id DESC LIMIT 1;
  END IF;
  prev_hash := coalesce(prev_hash, repeat('0', 64));
  RETURN NEXT;
END;
$$;
