-- Audit hardening (issue 13).
--
-- hash_alg: how each record's hash was made. Records written before this migration were chained with plain
-- SHA-256 ('sha256'); new records with HMAC-SHA256 under AUDIT_HMAC_KEY, which the database does not hold
-- ('hmac-sha256:<key id>'). The keyed hash covers hash_alg itself, and verification refuses a plain record
-- after a keyed one, so a keyed record cannot be downgraded to plain. The column gets no default: the
-- application always names the algorithm.
ALTER TABLE "audit_events" ADD COLUMN "hash_alg" TEXT NOT NULL DEFAULT 'sha256';
ALTER TABLE "audit_events" ALTER COLUMN "hash_alg" DROP DEFAULT;

-- The append-only row triggers (UPDATE, DELETE) exist since the first migration; TRUNCATE fires no row
-- trigger, so it is refused by a statement-level one. (The owner can still disable triggers: the keyed
-- chain and the chain heads recorded in the log are what detect that.)
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TRIGGER transfer_decisions_no_truncate BEFORE TRUNCATE ON "transfer_decisions"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
