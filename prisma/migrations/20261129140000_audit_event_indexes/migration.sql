-- The record's hash is checked by recomputing the chain (lib/audit/verify-audit-chain.ts) and never looked up:
-- its unique index only cost a random-key B-tree insert per record.
DROP INDEX "audit_events_hash_key";

-- Records written by the system (no user) are most of the log under immediate confirmation and callbacks; the
-- user filter never asks for them by user id.
DROP INDEX "audit_events_user_id_at_idx";
CREATE INDEX "audit_events_user_id_at_idx" ON "audit_events"("user_id", "at") WHERE "user_id" IS NOT NULL;
