// What a process must be given rather than default or generate, and the message that says exactly what to
// export. Keys: every process of a deployment (server, worker, CLI, db:deploy) shares AUTH_SECRET,
// DATA_ENCRYPTION_KEY and AUDIT_HMAC_KEY, so whenever the database is a real one (DATABASE_URL) or the
// process runs in production, none may come from DATA_DIR: a key generated there differs between machines
// and from the server's, and records written under it (the audit chain) can never be re-keyed. Only
// development on the embedded database generates them. `npm start` also needs the store's identity and, with
// single sign-on, the public address the provider redirects back to.
import { DEMO_PHARMACY, type Env } from "@/lib/env-schema";

export const SECRETS = [
  { name: "AUTH_SECRET", file: "auth-secret", what: "signs and encrypts dashboard sessions" },
  {
    name: "DATA_ENCRYPTION_KEY",
    file: "data-encryption-key",
    what: "encrypts stored secrets (webhook secrets, partners' credentials, two-factor secrets)",
  },
  { name: "AUDIT_HMAC_KEY", file: "audit-hmac-key", what: "keys the audit log's hash chain" },
] as const;

export type SecretName = (typeof SECRETS)[number]["name"];

/** Why this process must be given its keys, or null where development keys in DATA_DIR are allowed. */
export function keysRequiredBecause(settings: Env, production: boolean): string | null {
  if (production) return "in production";
  if (settings.DATABASE_URL) return "with DATABASE_URL set";
  return null;
}

/** The refusal for missing keys: which, what each is for, and the commands that make them. */
export function missingSecretsMessage(settings: Env, because: string): string | null {
  const missing = SECRETS.filter((s) => !settings[s.name]);
  if (missing.length === 0) return null;
  return [
    `refusing to start ${because} without ${missing.map((s) => s.name).join(", ")}:`,
    ...missing.map((s) => `  ${s.name.padEnd(20)} ${s.what}`),
    "Make each once with `openssl rand -base64 32` (at least 32 characters) and keep them in a secret store,",
    "outside the database; give the server, every worker, the CLI and db:deploy the same values:",
    ...missing.map((s) => `  export ${s.name}="$(openssl rand -base64 32)"`),
    "(The same values every time: generate them once, not in every shell.) Keys are generated into DATA_DIR only",
    "for development on the embedded database (no DATABASE_URL, not production).",
  ].join("\n");
}

/** What `npm start` refuses besides missing keys: an unnamed store, and single sign-on without PUBLIC_URL. */
export function productionSettingProblems(settings: Env): string[] {
  const problems: string[] = [];
  if (!settings.ALLOW_DEMO_PHARMACY) {
    if (settings.PHARMACY_NPI === DEMO_PHARMACY.npi)
      problems.push(
        `PHARMACY_NPI is not set (or is the demo's ${DEMO_PHARMACY.npi}): export PHARMACY_NPI=<this store's 10-digit NPI>`,
      );
    if (settings.PHARMACY_NAME === DEMO_PHARMACY.name)
      problems.push(
        `PHARMACY_NAME is not set (or is the demo's "${DEMO_PHARMACY.name}"): export PHARMACY_NAME="<this store's name>"`,
      );
  }
  if (settings.OIDC_ISSUER && !settings.PUBLIC_URL)
    problems.push(
      "PUBLIC_URL is not set, and single sign-on (OIDC_ISSUER) needs it: export PUBLIC_URL=<the address people open, e.g. https://rx.pharmacy.example>" +
        " and register <PUBLIC_URL>/api/auth/callback/oidc as the redirect URI at the provider",
    );
  return problems;
}
