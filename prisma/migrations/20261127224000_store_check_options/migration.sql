-- The review checks' settings each store's pending transfers were last checked with: NULL (every store, at
-- first) makes the next start-up check them again with the server's settings.
ALTER TABLE "stores" ADD COLUMN "check_options" TEXT;
