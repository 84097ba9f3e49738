// Where to go after signing in: only a path of this site (never another origin, never an API route).
export const DEFAULT_AFTER_LOGIN = "/transfers";

export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 2000) return DEFAULT_AFTER_LOGIN;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return DEFAULT_AFTER_LOGIN;
  if (value === "/" || value.startsWith("/login") || value.startsWith("/api/")) return DEFAULT_AFTER_LOGIN;
  return value;
}
