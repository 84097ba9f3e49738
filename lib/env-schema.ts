// Every setting the service reads, validated, with a message that says which variable is wrong and what it
// should be. Only the schema and its parser: the application reads its settings through lib/env.ts (marked
// server-only); next.config.ts parses with this directly, because Next's loader for it cannot resolve
// `server-only` (it rewrites tsconfig paths as if every file sat at the root, so neither @/ nor that mapping work).
import { z } from "zod";
// Relative: next.config.ts loads this module without the @/ alias.
import { parseTrustedProxies, type TrustedProxies } from "./http/client-address";

const booleanFromString = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

/** A host name or address as `allowedDevOrigins` takes it: `192.168.1.20`, `devbox.local`, `*.example.test`, `[fd00::1]`. */
const DEV_HOST = /^(\[[0-9a-f:.]+\]|(\*{1,2}\.)?[a-z0-9-]+(\.[a-z0-9-]+)*)$/i;

const hostList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine(
    (hosts) => hosts.every((h) => DEV_HOST.test(h)),
    "must be host names or addresses separated by commas, without scheme or port (e.g. 192.168.1.20,devbox.local)",
  );

/** The pharmacy `npm run dev` serves when PHARMACY_NPI / PHARMACY_NAME are unset; `npm start` refuses it. */
export const DEMO_PHARMACY = { npi: "1245319599", name: "Riverside Community Pharmacy" } as const;

/** An http(s) origin (`https://rx.pharmacy.example`, `http://127.0.0.1:3000`): no path, query or fragment. */
const publicUrl = z
  .string()
  .refine((v) => {
    try {
      const url = new URL(v);
      return (
        (url.protocol === "https:" || url.protocol === "http:") &&
        !url.username &&
        !url.password &&
        url.pathname === "/" &&
        !url.search &&
        !url.hash &&
        !/[?#]/.test(v)
      );
    } catch {
      return false;
    }
  }, "must be an http(s):// origin without path or query, e.g. https://rx.pharmacy.example")
  .transform((v) => new URL(v).origin);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // AUTH_SECRET and the keys below are required with DATABASE_URL set or in production (lib/ops/required-settings.ts);
  // only development on the embedded database generates missing ones into DATA_DIR. Every process shares them.
  /** Key for secrets stored encrypted (webhook secrets, partners' outbound credentials); independent of AUTH_SECRET. */
  DATA_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** The key before the current one, still read (never written) until `npm run cli -- secrets rotate-key` has re-sealed everything. */
  DATA_ENCRYPTION_KEY_PREVIOUS: z.string().min(32, "must be at least 32 characters").optional(),
  /** HMAC key of the audit log's hash chain, kept outside the database so that its owner cannot rewrite history unnoticed. */
  AUDIT_HMAC_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** How often the server writes the audit chain's head to the log (also at start and at shutdown). */
  /** How many audit chains records are spread over; 1 is the single chain behind one lock. */
  AUDIT_CHAINS: z.coerce.number().int().min(1, "must be at least 1").max(64, "must be at most 64").default(8),
  AUDIT_HEAD_LOG_MINUTES: z.coerce
    .number()
    .min(0.05, "must be at least 0.05")
    .max(1440, "must be at most 1440")
    .default(60),
  PHARMACY_NPI: z
    .string()
    .regex(/^\d{10}$/, "must be a 10-digit NPI")
    .default(DEMO_PHARMACY.npi),
  PHARMACY_NAME: z.string().min(1).max(200).default(DEMO_PHARMACY.name),
  /** `true`: `npm start` may serve as the demo pharmacy (the test suite and demonstrations only). */
  ALLOW_DEMO_PHARMACY: booleanFromString.default(false),
  CALLBACK_ALLOW_PRIVATE_NETWORKS: booleanFromString.default(false),
  /** Total time one callback attempt may take (connect, send, answer) before it counts as failed. */
  CALLBACK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, "must be at least 100")
    .max(120_000, "must be at most 120000")
    .default(15_000),
  /** Multiplies the retry schedule's delays (not the 72-hour retry window): below 1 only to make tests fast. */
  CALLBACK_RETRY_SCALE: z.coerce.number().positive("must be greater than 0").max(100).default(1),
  /** Run the callback worker inside `npm run dev` / `npm start` (set false where `npm run worker` runs it apart). */
  RUN_WORKER: booleanFromString.default(true),
  /** Callback deliveries one worker process runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** One partner's due callbacks one delivery job claims and sends at once (1: one per job; 32: bench/HISTORY.md's sweep). */
  CALLBACK_BATCH_SIZE: z.coerce.number().int().min(1).max(50).default(32),
  /** How often a worker looks for jobs whose time has come (new jobs are picked up at once by LISTEN/NOTIFY). */
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * How long the first of a worker's delivery jobs waits for others to start, so that they claim and record
   * their callbacks together (lib/callbacks/drain-gatherer.ts); the most a callback is delayed by it.
   */
  CALLBACK_GATHER_MS: z.coerce.number().int().min(0).max(1000).default(10),
  OAUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Requests per minute per API key or OAuth client on /v1 (shared by all instances). */
  V1_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Hosts besides the loopback ones that may open `npm run dev` (another machine on the LAN, a forwarded port's name). */
  DEV_ALLOWED_ORIGINS: hostList.default([]),
  // --- Dashboard sessions, sign-in lockout and review claims ---
  /** Automatic logoff after this many minutes without activity (HIPAA 164.312(a)(2)(iii)); fractions allowed (tests use seconds). */
  SESSION_IDLE_MINUTES: z.coerce.number().min(0.1, "must be at least 0.1").max(720, "must be at most 720").default(15),
  /** A session ends this many hours after sign-in, however active. */
  SESSION_MAX_HOURS: z.coerce.number().min(0.1, "must be at least 0.1").max(168, "must be at most 168").default(12),
  /** Consecutive failed sign-ins (per email) before the account is locked. */
  SIGNIN_LOCKOUT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  /** First lockout, in seconds; it doubles with every further failure. */
  SIGNIN_LOCKOUT_BASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Longest lockout, in seconds. */
  SIGNIN_LOCKOUT_MAX_SECONDS: z.coerce.number().int().min(1).max(604_800).default(3600),
  /** Failed sign-ins allowed from one client address per 15 minutes, whatever the emails. */
  SIGNIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().min(1).max(100_000).default(100),
  /**
   * How early a refill may come, as a percentage of the days supply: the next fill is due at the last fill +
   * days supply × (1 − this). Earlier is "refill too soon" on the review screen; the fill-history check
   * allows the same. Payers commonly allow 20-30 %.
   */
  EARLY_REFILL_ALLOWANCE_PERCENT: z.coerce
    .number()
    .min(0, "must be at least 0")
    .max(90, "must be at most 90")
    .default(25),
  /** Who must sign in with a second factor (TOTP): `admins`, `all` or `none`. Those required and not enrolled enrol right after the password. */
  MFA_REQUIRED: z.enum(["admins", "all", "none"]).default("admins"),
  /** How long a pharmacist's claim on a transfer lasts without renewal. */
  CLAIM_MINUTES: z.coerce.number().min(0.1, "must be at least 0.1").max(240, "must be at most 240").default(10),
  // --- Single sign-on (README "Single sign-on") ---
  /** The OpenID Connect provider's issuer URL; discovery reads `<issuer>/.well-known/openid-configuration`. Unset: no SSO. */
  OIDC_ISSUER: z.url({ protocol: /^https?$/, error: "must be an http(s):// URL" }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(512).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2048).optional(),
  /** The button's "Sign in with <name>"; default: the issuer's host name. */
  OIDC_NAME: z.string().min(1).max(60).optional(),
  /** An ID token / userinfo claim (string or list) whose value `admin` or `pharmacist` sets the user's role. */
  OIDC_ROLE_CLAIM: z
    .string()
    .regex(/^[A-Za-z0-9_.:/-]{1,100}$/, "must be a claim name (letters, digits, _ . : / -)")
    .optional(),
  /** `pharmacist`: a verified email that names no user creates one; `none` (default): such sign-ins are refused. */
  OIDC_AUTO_CREATE: z.enum(["none", "pharmacist"]).default("none"),
  /** Hide and refuse password sign-in for everyone but the break-glass admins below. */
  SSO_ONLY: booleanFromString.default(false),
  /** Admins who may still sign in with a password when SSO_ONLY=true (emails, comma separated). */
  SSO_BREAK_GLASS_EMAILS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (emails) => emails.every((e) => /^[^\s@,]+@[^\s@,]+$/.test(e)),
      "must be email addresses separated by commas",
    )
    .default([]),
  // --- Edge hardening ---
  /** Refuse /v1 transfers from partners registered without sending NPIs (otherwise they may send from any NPI). */
  REQUIRE_PARTNER_NPIS: booleanFromString.default(false),
  /** Tokens issued a minute per OAuth client; failed requests for a client are counted apart, with the same limit. */
  OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Failed token requests a minute per client address, whatever the client id (guessing). */
  OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(120),
  /** Unexpired bearer tokens one OAuth client may hold; issuing one more revokes its oldest. */
  OAUTH_MAX_LIVE_TOKENS_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Largest body a dashboard API write (POST/PUT/PATCH/DELETE under /api/, next-auth's aside) may send. */
  DASHBOARD_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024, "must be at least 1024")
    .max(10 * 1024 * 1024, "must be at most 10485760")
    .default(64 * 1024),
  /** Allow http:// callback URLs (development and tests); otherwise callbacks go only to https:// URLs. */
  CALLBACK_ALLOW_INSECURE_HTTP: booleanFromString.default(false),
  /**
   * Proxies in front of this server whose X-Forwarded-For/-Proto/-Host are believed: a hop count (`1`) or
   * addresses/CIDRs (`10.0.0.0/8,fd00::/8`). Unset: none, the socket's peer is the client.
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((v, ctx): TrustedProxies => {
      try {
        return parseTrustedProxies(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    }),
  // --- Operations (README "Operations") ---
  /** Bearer token for GET /metrics on the public port; without it (and without METRICS_PORT) /metrics is not served. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(512).optional(),
  /** Serve /metrics (no token) on this port, bound to 127.0.0.1 only. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** false: record no metrics at all (the benchmark's baseline); /metrics then shows only process metrics. */
  METRICS_ENABLED: booleanFromString.default(true),
  /** On SIGTERM, answer /readyz 503 (and keep serving) this long before closing, so a load balancer drains us. */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(0),
  // --- Alerts before the sender's 4-hour window closes ---
  /**
   * Mail server for alert emails (`smtps://user:pass@host:465`, or `smtp://user:pass@host:587`, which must
   * then offer STARTTLS); unset, no email is sent.
   */
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\/[^\s?#]+$/.test(v) && URL.canParse(v) && new URL(v).hostname !== "",
      "must be smtps://[user:pass@]host[:port] or smtp://[user:pass@]host[:port], without query",
    )
    .optional(),
  /** `true`: send alert email without TLS (a relay on this host or network only); logged as a warning at start. */
  SMTP_ALLOW_PLAINTEXT: booleanFromString.default(false),
  /** Who gets alert emails, comma-separated. */
  ALERT_EMAILS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((e) => z.email().safeParse(e).success), "must be email addresses separated by commas"),
  /** The From of alert emails. */
  ALERT_EMAIL_FROM: z.string().min(3).max(200).default("Rx Transfer <rx-transfer@localhost>"),
  /**
   * The service's address as people and partners reach it (`https://rx.pharmacy.example`): an origin, no path.
   * Every absolute URL is made from it: single sign-on's redirect URI (given to next-auth as AUTH_URL),
   * sign-in redirects, OAuth discovery's issuer (unless a trusted proxy's X-Forwarded-Host says otherwise),
   * alert email links. Required by `npm start` with single sign-on. Unset: the address each request came to.
   */
  PUBLIC_URL: publicUrl.optional(),
  /** Deprecated name of PUBLIC_URL, still read when PUBLIC_URL is unset. */
  DASHBOARD_URL: publicUrl.optional(),
  /** How often each worker looks for transfers that crossed an alert threshold (fractions allowed for tests). */
  /** How often each dashboard screen asks for the alert banner's count (fractions allowed for tests). */
  ALERT_POLL_SECONDS: z.coerce.number().min(0.5, "must be at least 0.5").max(600, "must be at most 600").default(30),
  ALERT_SCAN_SECONDS: z.coerce.number().min(0.2, "must be at least 0.2").max(3600, "must be at most 3600").default(60),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.superRefine((e, ctx) => {
    // An issuer without its client (or the reverse) is a half-done configuration, not "no SSO".
    const oidc = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together",
      });
    }
    if (e.PUBLIC_URL && e.DASHBOARD_URL && e.PUBLIC_URL !== e.DASHBOARD_URL)
      ctx.addIssue({
        code: "custom",
        path: ["DASHBOARD_URL"],
        message: `is the old name of PUBLIC_URL and differs from it (${e.PUBLIC_URL}): remove DASHBOARD_URL`,
      });
    if (e.SSO_ONLY && !e.OIDC_ISSUER)
      ctx.addIssue({ code: "custom", path: ["SSO_ONLY"], message: "needs OIDC_ISSUER (and its client) to be set" });
  }).safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  // DASHBOARD_URL is PUBLIC_URL's old name.
  return { ...result.data, PUBLIC_URL: result.data.PUBLIC_URL ?? result.data.DASHBOARD_URL };
}
