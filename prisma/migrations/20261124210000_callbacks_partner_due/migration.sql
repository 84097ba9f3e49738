-- A delivery job claims its partner's other due callbacks (lib/callbacks/claim-due-callbacks.ts): this index
-- reads them in due order for one partner, without walking every partner's pending callbacks.
CREATE INDEX "callbacks_partner_id_status_next_attempt_at_idx" ON "callbacks"("partner_id", "status", "next_attempt_at");
