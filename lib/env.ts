// The one place that reads process.env: every setting is validated here, with a message that says
// which variable is wrong and what it should be.
import { z } from "zod";

const booleanFromString = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Key for secrets stored encrypted (webhook secrets, partners' outbound credentials); derived from AUTH_SECRET when unset. */
  DATA_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  PHARMACY_NPI: z
    .string()
    .regex(/^\d{10}$/, "must be a 10-digit NPI")
    .default("1245319599"),
  PHARMACY_NAME: z.string().min(1).max(200).default("Riverside Community Pharmacy"),
  CALLBACK_ALLOW_PRIVATE_NETWORKS: booleanFromString.default(false),
  OAUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Requests per minute per API key or OAuth client on /v1 (shared by all instances). */
  V1_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Lets a launcher (scripts/serve.ts, the CLI) set variables it derived, such as the embedded database URL. */
export function setEnv(values: Record<string, string>): void {
  for (const [k, v] of Object.entries(values)) process.env[k] = v;
  cached = undefined;
}
