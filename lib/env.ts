// The one place that reads process.env: every setting through env(), validated by lib/env-schema.ts (which
// says which variable is wrong and what it should be). Server-only: a client component that imports it fails
// the build.
import "server-only";
import { parseEnv, type Env } from "@/lib/env-schema";

export { DEMO_PHARMACY, EnvError, parseEnv, type Env } from "@/lib/env-schema";

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
