-- Two-factor sign-in (TOTP, RFC 6238) with recovery codes. The secrets are sealed with the secret box
-- (owner `user:<id>:totp`); recovery codes are kept only as SHA-256 (80 random bits each); the last time
-- step accepted is kept so that a code cannot be used twice. A session signed in with the password alone
-- is marked on its row until the second step (or a required enrolment) is done.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "two_factor_exempt" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "two_factor_enabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "two_factor_last_step" BIGINT,
ADD COLUMN     "two_factor_pending_secret" TEXT,
ADD COLUMN     "two_factor_recovery_hashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "two_factor_secret" TEXT;

-- AlterTable
ALTER TABLE "user_sessions" ADD COLUMN     "second_factor" TEXT;
