// Structured JSON logs, one line per event. Never pass patient data here: log ids, paths and types.
// Two guards make that structural rather than a matter of care at each call:
//   - a field that names a place (url, path, route, location, referer) loses its query string and fragment,
//     where searches carry names and dates of birth;
//   - errors are logged through errorFields, which keeps a database error's code (SQLSTATE, Prisma's P…)
//     and a redacted message: PostgreSQL and Prisma quote the offending values ("Key (email)=(…)",
//     "invalid input syntax for type date: \"…\""). Every other error message is redacted the same way.
import { env } from "@/lib/env";

type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const PLACE_FIELDS = new Set(["url", "path", "pathname", "route", "location", "referer", "referrer", "href"]);
// (A stack is logged only as errorFields makes it, message already redacted and line numbers kept.)
const MESSAGE_FIELDS = new Set(["error", "message", "detail"]);

/** `/a/b?q=Smith#x` → `/a/b`. */
export function withoutQuery(place: string): string {
  const end = place.search(/[?#]/);
  return end === -1 ? place : place.slice(0, end);
}

/**
 * A message with the values it may quote taken out: quoted text, `(column)=(value)` pairs, anything after
 * "value"/"input"/"detail" colons, e-mail addresses, dates and runs of digits (NPIs, Rx numbers, phones).
 */
export function redactMessage(message: string): string {
  return message
    .replace(/=\([^)]*\)/g, "=(…)")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/`(?:[^`\\]|\\.)*`/g, "`…`")
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "…@…")
    .replace(/\b\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?\b/g, "…")
    .replace(/\d{3,}/g, "…");
}

function sanitizeFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string" && PLACE_FIELDS.has(key)) out[key] = withoutQuery(value);
    else if (typeof value === "string" && MESSAGE_FIELDS.has(key)) out[key] = redactMessage(value);
    else out[key] = value;
  }
  return out;
}

/** Whether a line at this level would be written: lets a hot path skip building its fields. */
export function isLogged(level: Level): boolean {
  return ORDER[level] >= ORDER[env().LOG_LEVEL];
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < ORDER[env().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...sanitizeFields(fields) });
  if (level === "error" || level === "warn") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}

/** A database error's code: SQLSTATE from pg (or through Prisma's driver adapter), or Prisma's own P…. */
export function databaseErrorCode(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { code?: unknown } };
    for (const candidate of [e.code, e.originalCode, e.meta?.code]) {
      // SQLSTATE: five characters, digits among them (unlike errno names such as EPIPE).
      if (
        typeof candidate === "string" &&
        ((/^[0-9A-Z]{5}$/.test(candidate) && /\d/.test(candidate)) || /^P\d{4}$/.test(candidate))
      )
        return candidate;
    }
    current = e.cause;
  }
  return null;
}

/** What to log about an error: its name, database code if any, and its message and stack with values redacted. */
export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const message = redactMessage(err.message);
    const code = databaseErrorCode(err);
    // The stack's first lines repeat the message: keep only the frames.
    const frames = err.stack
      ?.split("\n")
      .filter((line) => /^\s+at /.test(line))
      .join("\n");
    return {
      error: message,
      errorName: err.name,
      ...(code ? { errorCode: code } : {}),
      stack: frames ? `${err.name}: ${message}\n${frames}` : undefined,
    };
  }
  return { error: redactMessage(String(err)) };
}
