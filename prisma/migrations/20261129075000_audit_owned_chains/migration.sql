-- Audit chains a pooled connection owns for its life (lib/audit/owned-chain.ts).
--
-- A connection that takes a chain's lock at session level, above the chains audit_chain_acquire hands out,
-- is that chain's only writer until it closes, so it knows the chain's last hash without asking: its record
-- can be hashed before the statement that writes it, and an audited action fits in one autocommit statement
-- with no lock to wait for. The lock is the same (7324002, chain) lock every writer of a chain holds.

-- The hash a chain's next record links to: its last record's, else chain 0's last (the single chain before
-- partitioning), else the genesis hash. Read under the chain's lock.
CREATE FUNCTION audit_chain_head(c INTEGER) RETURNS TEXT
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  h TEXT;
BEGIN
  SELECT e.hash INTO h FROM audit_events e WHERE e.chain = c ORDER BY e.id DESC LIMIT 1;
  IF h IS NULL THEN
    SELECT e.hash INTO h FROM audit_events e WHERE e.chain = 0 ORDER BY e.id DESC LIMIT 1;
  END IF;
  RETURN coalesce(h, repeat('0', 64));
END;
$$;

-- Takes the first free chain from `highest` down to `lowest` for this session (held until the connection
-- closes) and returns it with its head; no row when every one is taken.
CREATE FUNCTION audit_chain_own(lowest INTEGER, highest INTEGER) RETURNS TABLE (chain INTEGER, prev_hash TEXT)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  FOR c IN REVERSE highest..lowest LOOP
    IF pg_try_advisory_lock(7324002, c) THEN
      chain := c;
      prev_hash := audit_chain_head(c);
      RETURN NEXT;
      RETURN;
    END IF;
  END LOOP;
END;
$$;

-- As before, but a chain this session owns (above `chains`) is never reused for a transaction's record: its
-- owner hashes its records against the head it holds.
CREATE OR REPLACE FUNCTION audit_chain_acquire(chains INTEGER) RETURNS TABLE (chain INTEGER, prev_hash TEXT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  picked INTEGER;
BEGIN
  SELECT l.objid::INTEGER INTO picked FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.classid = 7324002 AND l.objsubid = 2 AND l.pid = pg_backend_pid() AND l.granted
     AND l.objid::INTEGER BETWEEN 1 AND chains
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
  prev_hash := audit_chain_head(picked);
  RETURN NEXT;
END;
$$;
