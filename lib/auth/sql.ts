// The sign-in's, sessions', API keys' and OAuth tokens' statements (typed: lib/db/kysely.ts). Row locks run
// inside the caller's Prisma transaction (inPrismaTx); the rest run on the pool.
import { sql, type ExpressionBuilder } from "kysely";
import { sqlDb, type Database } from "@/lib/db/kysely";

const now = sql<Date>`now()`;
const secondsAgo = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds}::float8)`;

// --- API keys and OAuth ---------------------------------------------------------------------------------

/** The key by hash, if it is valid: not revoked, not expired, its partner not suspended. */
export function selectValidApiKey(hash: string) {
  return sqlDb()
    .selectFrom("api_keys as k")
    .innerJoin("partners as p", "p.id", "k.partner_id")
    .select(["k.id", "k.partner_id", "p.npis", "k.last_used_at"])
    .where("k.hash", "=", hash)
    .where(keyIsValid);
}

type KeyAndPartner = ExpressionBuilder<Database & { k: Database["api_keys"]; p: Database["partners"] }, "k" | "p">;

/** What makes a key usable, over `api_keys k JOIN partners p`: the one definition both lookups use. */
function keyIsValid(eb: KeyAndPartner) {
  return eb.and([
    eb("k.revoked_at", "is", null),
    eb.or([eb("k.expires_at", "is", null), eb("k.expires_at", ">", now)]),
    eb("p.suspended_at", "is", null),
  ]);
}

/** last_used_at at most once a minute per key; the guard keeps concurrent instances from piling up. */
export function touchApiKey(keyId: string) {
  return sqlDb()
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("id", "=", keyId)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", secondsAgo(60))]));
}

export function lockApiKey(keyId: string) {
  return sqlDb()
    .selectFrom("api_keys")
    .select(["partner_id", "revoked_at", "expires_at"])
    .where("id", "=", keyId)
    .forUpdate();
}

export function lockOAuthClient(clientId: string) {
  return sqlDb()
    .selectFrom("oauth_clients")
    .select(["id", "partner_id", "revoked_at"])
    .where("client_id", "=", clientId)
    .forUpdate();
}

/** The client's live tokens beyond its newest `keep`. */
export function deleteOAuthTokensBeyond(clientDbId: string, keep: number) {
  return sqlDb()
    .deleteFrom("oauth_tokens")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("oauth_tokens")
        .select("id")
        .where("client_id", "=", clientDbId)
        .where("expires_at", ">", now)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .offset(keep),
    );
}

/** A few tokens expired over an hour ago (each issue sweeps some, so no cron is needed). */
export function deleteExpiredOAuthTokens() {
  return sqlDb()
    .deleteFrom("oauth_tokens")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("oauth_tokens")
        .select("id")
        .where("expires_at", "<", sql<Date>`now() - interval '1 hour'`)
        .limit(sql.lit(100)),
    );
}

export function selectSenderByTokenHash(hash: string) {
  return sqlDb()
    .selectFrom("oauth_tokens as t")
    .innerJoin("oauth_clients as c", "c.id", "t.client_id")
    .innerJoin("partners as p", "p.id", "c.partner_id")
    .select(["c.partner_id", "p.npis", "c.id as client_id"])
    .where("t.hash", "=", hash)
    .where("t.expires_at", ">", now)
    .where("c.revoked_at", "is", null)
    .where("p.suspended_at", "is", null);
}

// --- Sessions and second factors ---------------------------------------------------------------------------

/** The user and whether the session is live, in one round trip; second_factor: what the session still owes. */
export function selectSessionUser(userId: string, sessionId: string) {
  return sqlDb()
    .selectFrom("users as u")
    .leftJoin("user_sessions as s", (join) =>
      join.on("s.id", "=", sessionId).onRef("s.user_id", "=", "u.id").on("s.expires_at", ">", now),
    )
    .select((eb) => [
      "u.id",
      "u.email",
      "u.name",
      eb.cast<string>("u.role", "text").as("role"),
      eb("u.disabled_at", "is not", null).$castTo<boolean>().as("disabled"),
      "u.session_version",
      eb("s.id", "is not", null).$castTo<boolean>().as("session_live"),
      "s.second_factor",
    ])
    .where("u.id", "=", userId);
}

/** Accepts a TOTP step once: only a step after the last one accepted (a replay changes nothing). */
export function acceptTotpStep(userId: string, step: number, opts: { clearLockout: boolean }) {
  return sqlDb()
    .updateTable("users")
    .set({
      two_factor_last_step: sql<string>`${step}::bigint`,
      ...(opts.clearLockout ? { failed_logins: 0, locked_until: null } : {}),
    })
    .where("id", "=", userId)
    .where((eb) =>
      eb.or([eb("two_factor_last_step", "is", null), eb("two_factor_last_step", "<", sql<string>`${step}::bigint`)]),
    )
    .returning("id");
}

/** Spends a recovery code (by hash) once; answers how many are left. */
export function spendRecoveryCode(userId: string, hash: string) {
  return sqlDb()
    .updateTable("users")
    .set((eb) => ({ two_factor_recovery_hashes: eb.fn("array_remove", ["two_factor_recovery_hashes", eb.val(hash)]) }))
    .where("id", "=", userId)
    .where(({ eb }) => eb(eb.val(hash), "=", eb.fn.any("two_factor_recovery_hashes")))
    .returning((eb) => [
      sql<number>`coalesce(cardinality(${eb.ref("two_factor_recovery_hashes")}), 0)::int`.as("left"),
    ]);
}

/** The users with a TOTP secret, locked in id order (re-sealing touches them all). */
export function lockUsersWithTotpSecrets() {
  return sqlDb()
    .selectFrom("users")
    .select("id")
    .where((eb) => eb.or([eb("two_factor_secret", "is not", null), eb("two_factor_pending_secret", "is not", null)]))
    .orderBy("id")
    .forUpdate();
}

// --- Sign-in lockouts -------------------------------------------------------------------------------------

export type Lockout = { threshold: number; baseSeconds: number; maxSeconds: number };

/**
 * Counts a failure in advance unless the account is locked; the count that reaches the threshold sets the
 * lock (base × 2^(over), capped) in the same statement.
 */
export function reserveAccountFailure(userId: string, l: Lockout) {
  return sqlDb()
    .updateTable("users")
    .set((eb) => ({
      failed_logins: eb("failed_logins", "+", 1),
      locked_until: sql<Date | null>`CASE WHEN ${eb.ref("failed_logins")} + 1 >= ${l.threshold}
        THEN now() + make_interval(secs => LEAST(${l.baseSeconds}::float8 * power(2, LEAST(${eb.ref("failed_logins")} + 1 - ${l.threshold}, 30)), ${l.maxSeconds}::float8))
        ELSE ${eb.ref("locked_until")} END`,
    }))
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
    .returning(["failed_logins", "locked_until", now.as("now")]);
}

export function selectAccountLock(userId: string) {
  return sqlDb().selectFrom("users").select("locked_until").where("id", "=", userId).where("locked_until", ">", now);
}

/**
 * The unknown email's bucket: window_start is the last failure, count the consecutive failures (forgotten
 * after `memorySeconds`); no change while window_start + lockout(count) is ahead.
 */
export function reserveUnknownEmailFailure(key: string, memorySeconds: number, l: Lockout) {
  return sqlDb()
    .insertInto("rate_limit_buckets")
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => ({
          count: sql<number>`CASE WHEN ${eb.ref("rate_limit_buckets.window_start")} < ${secondsAgo(memorySeconds)}
            THEN 1 ELSE ${eb.ref("rate_limit_buckets.count")} + 1 END`,
          window_start: now,
        }))
        .where((eb) =>
          eb.not(
            eb.and([
              eb("rate_limit_buckets.count", ">=", l.threshold),
              eb(
                sql<Date>`${eb.ref("rate_limit_buckets.window_start")} + make_interval(secs => LEAST(${l.baseSeconds}::float8 * power(2, LEAST(${eb.ref("rate_limit_buckets.count")} - ${l.threshold}, 30)), ${l.maxSeconds}::float8))`,
                ">",
                now,
              ),
            ]),
          ),
        ),
    )
    .returning(["count", "window_start", now.as("now")]);
}

/** A fixed window per address: counts a failure unless the window already holds `max`. */
export function reserveAddressFailure(key: string, windowSeconds: number, max: number) {
  return sqlDb()
    .insertInto("rate_limit_buckets")
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => {
          const expired = sql<boolean>`${eb.ref("rate_limit_buckets.window_start")} <= ${secondsAgo(windowSeconds)}`;
          return {
            count: sql<number>`CASE WHEN ${expired} THEN 1 ELSE ${eb.ref("rate_limit_buckets.count")} + 1 END`,
            window_start: sql<Date>`CASE WHEN ${expired} THEN now() ELSE ${eb.ref("rate_limit_buckets.window_start")} END`,
          };
        })
        .where((eb) =>
          eb.or([
            eb("rate_limit_buckets.window_start", "<=", secondsAgo(windowSeconds)),
            eb("rate_limit_buckets.count", "<", max),
          ]),
        ),
    )
    .returning("count");
}

/** Gives back an address's failure that turned out not to be one. */
export function releaseAddressFailure(key: string) {
  return sqlDb()
    .updateTable("rate_limit_buckets")
    .set((eb) => ({ count: sql<number>`GREATEST(${eb.ref("count")} - 1, 0)` }))
    .where("key", "=", key);
}
