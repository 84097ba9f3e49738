// The dashboard's fetch: JSON in and out, problem+json errors as ApiError, and a 401 (session ended)
// sends the person to the sign-in page, which brings them back here afterwards.
import type { Problem } from "@/lib/http/problem-response";

export const BACKGROUND_HEADER = "x-rx-background";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem?.detail ?? `The server answered ${status}.`);
    this.name = "ApiError";
  }
}

/** Set while the page signs its person out (idle logoff, Sign out): the reason every way to the sign-in page then gives. */
let signingOutFor: string | null = null;
let leaving = false;

/**
 * The page is ending the session itself (idle logoff, the Sign out buttons). A background request that meets the now-cleared
 * session must neither lead to the sign-in page without the reason nor cut the sign-out request short by
 * navigating away while it is being sent (next dev then logged an aborted request as an uncaught ECONNRESET).
 */
export function beginSignOut(reason: string): void {
  signingOutFor = reason;
}

/** The sign-out failed and the session goes on: a 401 leads to the sign-in page again. */
export function cancelSignOut(): void {
  signingOutFor = null;
}

export function goToLogin(reason?: string): void {
  // The first way out wins; a second navigation would abort the first and lose its reason.
  if (leaving) return;
  if (signingOutFor && reason !== signingOutFor) return; // the sign-out itself navigates, with its reason
  leaving = true;
  const params = new URLSearchParams({ callbackUrl: `${window.location.pathname}${window.location.search}` });
  if (reason) params.set("reason", reason);
  window.location.assign(new URL(`/login?${params}`, window.location.origin).toString());
}

/**
 * `background`: the page's own timers (refresh, claim renewal). Such requests do not count as the
 * person's activity, so an unattended screen still logs off after the idle limit.
 */
export async function apiFetch<T>(
  url: string,
  opts: { method?: string; body?: unknown; background?: boolean; keepalive?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.background) headers[BACKGROUND_HEADER] = "1";
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: "same-origin",
    keepalive: opts.keepalive,
    cache: "no-store",
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const problem = data && typeof data === "object" && "detail" in data ? (data as Problem) : null;
    if (res.status === 401) {
      const code = problem?.type.split(":").pop();
      goToLogin(code === "idle" || code === "expired" || code === "revoked" ? code : undefined);
    }
    throw new ApiError(res.status, problem);
  }
  return data as T;
}
