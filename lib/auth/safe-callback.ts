// Where to go after signing in: only a path of this site (never another origin, never an API route).
// Prefix checks on the raw text are not enough: browsers strip tabs and newlines from URLs and read `\` as
// `/`, so `/\t/evil.example` or `/\evil.example` become `//evil.example`. So the text is refused outright
// when it holds anything a browser would rewrite (control characters, backslashes, encoded slashes), and
// what is left is resolved with the URL parser against a fixed origin, which must stay that origin. The
// answer is the resolved URL's own path + query + fragment, never the text as given.
export const DEFAULT_AFTER_LOGIN = "/transfers";

/** A stand-in origin: only "does it stay on this origin" matters, not which one it is. */
const PROBE_ORIGIN = "http://callback.invalid";
const MAX_LENGTH = 2000;
/** C0 controls, DEL, C1 controls; and the backslash, which WHATWG URL parsing treats as a slash. */
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\]/;
/** Percent-encoded slash, backslash or control character: decoded later (by a proxy, a router), they are the same trick. */
const FORBIDDEN_ENCODINGS = /%(2f|5c|[01][0-9a-f]|7f|[89][0-9a-f])/i;

export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return DEFAULT_AFTER_LOGIN;
  if (FORBIDDEN_CHARACTERS.test(value) || FORBIDDEN_ENCODINGS.test(value)) return DEFAULT_AFTER_LOGIN;
  // A path of this site, not a scheme-relative URL or an absolute one (absolute same-origin URLs are
  // allowed only through sameOriginPath, where the real origin is known).
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_AFTER_LOGIN;
  return resolvedPath(value, PROBE_ORIGIN) ?? DEFAULT_AFTER_LOGIN;
}

/**
 * For next-auth's redirect callback, which is given absolute URLs: a URL on `origin` (the app's own) or a
 * path, as a safe path; anything else is the default page.
 */
export function sameOriginPath(value: string, origin: string): string {
  if (value.startsWith("/")) return safeCallbackPath(value);
  if (value.length > MAX_LENGTH || FORBIDDEN_CHARACTERS.test(value) || FORBIDDEN_ENCODINGS.test(value))
    return DEFAULT_AFTER_LOGIN;
  let base: URL;
  try {
    base = new URL(origin);
    new URL(value); // absolute URLs only: a relative one (`evil.example`, `http:evil.example`) is a mistake
    if (!/^https?:\/\//i.test(value)) return DEFAULT_AFTER_LOGIN;
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
  const path = resolvedPath(value, base.origin);
  return path === null ? DEFAULT_AFTER_LOGIN : safeCallbackPath(path);
}

function resolvedPath(value: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username || url.password) return null;
  const pathname = url.pathname;
  // The parser normalises dot segments (`/a/../api/x` is `/api/x`), so these checks see the real path.
  if (pathname.startsWith("//")) return null;
  if (
    pathname === "/" ||
    pathname === "/login" ||
    pathname.startsWith("/login/") ||
    pathname === "/api" ||
    pathname.startsWith("/api/")
  )
    return null;
  return `${pathname}${url.search}${url.hash}`;
}
