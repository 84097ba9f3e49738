// A partner's callback URL as an admin types it: its form (normalizeCallbackUrl, synchronous), and where it
// leads (checkCallbackUrl: the SSRF check, which resolves the host). The same address rule is applied again
// at every send (lib/callbacks/post-callback.ts), because DNS answers change. Only https:// unless
// CALLBACK_ALLOW_INSECURE_HTTP=true (development, tests); an http URL stored earlier fails at send, visibly.
import { CallbackAddressRefused, hostOf, resolveCallbackHost, type Resolver } from "@/lib/callbacks/network-guard";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

/** What the current mode allows, as the admin screens and errors say it. */
export function callbackSchemeRule(): string {
  return env().CALLBACK_ALLOW_INSECURE_HTTP
    ? "callback URL must use https:// (http:// is allowed here: CALLBACK_ALLOW_INSECURE_HTTP=true)"
    : "callback URL must use https://";
}

export function normalizeCallbackUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new DomainError("invalid_input", `${callbackSchemeRule()} and be an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new DomainError("invalid_input", callbackSchemeRule());
  }
  if (url.protocol === "http:" && !env().CALLBACK_ALLOW_INSECURE_HTTP) {
    throw new DomainError(
      "invalid_input",
      `${callbackSchemeRule()}: an http:// URL would send patient data unencrypted`,
    );
  }
  if (url.username || url.password) {
    throw new DomainError(
      "invalid_input",
      "callback URL must not contain credentials; use the outbound credential header",
    );
  }
  if (url.hash) throw new DomainError("invalid_input", "callback URL must not contain a #fragment");
  return url.toString();
}

/** How long the configuration-time DNS lookup may take before the URL is accepted on its form alone. */
const CONFIGURATION_LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The form check, then the SSRF check: a URL whose host is, or resolves to, a loopback, private, link-local,
 * metadata or otherwise non-public address is refused (unless CALLBACK_ALLOW_PRIVATE_NETWORKS=true). A name
 * that does not resolve (yet) is accepted: the partner may not have published it, and every send checks
 * the address again. Returns the normalized URL.
 */
export async function checkCallbackUrl(raw: string, opts: { resolve?: Resolver } = {}): Promise<string> {
  const normalized = normalizeCallbackUrl(raw);
  if (env().CALLBACK_ALLOW_PRIVATE_NETWORKS) return normalized;
  const host = hostOf(new URL(normalized));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), CONFIGURATION_LOOKUP_TIMEOUT_MS);
  });
  try {
    await Promise.race([resolveCallbackHost(host, { allowPrivate: false, resolve: opts.resolve }), timeout]);
  } catch (err) {
    if (err instanceof CallbackAddressRefused) {
      throw new DomainError(
        "invalid_input",
        `${err.message.replace(/^callback address refused: /, "callback URL refused: ")}; callbacks go only to public addresses`,
      );
    }
    // Does not resolve: accepted on its form (see above).
  } finally {
    clearTimeout(timer);
  }
  return normalized;
}
