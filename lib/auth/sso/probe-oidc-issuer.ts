// Whether the SSO provider answers discovery, for the sign-in page: a short timeout so the page never
// hangs on an unreachable issuer, an answer cached briefly so a busy page does not probe on every view,
// and one log line when the provider becomes unavailable (and one when it is back), not one per view.
import { log } from "@/lib/log";
import { oidcSettings } from "./oidc-settings";

const PROBE_TIMEOUT_MS = 2_000;
const CACHE_MS = 30_000;

type Probe = { available: boolean; at: number };
let last: Probe | null = null;
let inFlight: Promise<boolean> | null = null;

export async function oidcIssuerAvailable(now = Date.now()): Promise<boolean> {
  const settings = oidcSettings();
  if (!settings) return false;
  if (last && now - last.at < CACHE_MS) return last.available;
  inFlight ??= probe(settings.issuer).finally(() => (inFlight = null));
  return inFlight;
}

/** A sign-in attempt found the provider unreachable: the page says so at once, without waiting for the cache. */
export function markOidcIssuerUnavailable(reason: string): void {
  record(false, reason);
}

async function probe(issuer: string): Promise<boolean> {
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      redirect: "error",
      headers: { accept: "application/json" },
    });
    const body: unknown = response.ok ? await response.json() : null;
    const ok =
      typeof body === "object" && body !== null && "authorization_endpoint" in body && "token_endpoint" in body;
    record(ok, ok ? "" : `discovery answered ${response.status}`);
  } catch (err) {
    record(false, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
  return last?.available ?? false;
}

function record(available: boolean, reason: string): void {
  const before = last?.available;
  last = { available, at: Date.now() };
  if (!available && before !== false)
    log("warn", "sso provider unavailable", { issuer: oidcSettings()?.issuer ?? null, reason });
  if (available && before === false)
    log("info", "sso provider available again", { issuer: oidcSettings()?.issuer ?? null });
}
