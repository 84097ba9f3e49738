import { jsonAnswer, toWebResponse } from "@/lib/http/api-exchange";

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return toWebResponse(jsonAnswer(body, status, headers));
}

/** PostgreSQL or the pool could not be reached: worth a retry later (503), not a bug (500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof e.code === "string" ? e.code : "";
    const message = typeof e.message === "string" ? e.message : "";
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "53300", "P1001", "P1017"].includes(code)) return true;
    // "Can't reach database server": Prisma's adapter when PostgreSQL is down or restarting (tests/integration/db-restart.test.ts).
    if (/ECONNREFUSED|Can't reach database server|Connection terminated|timeout exceeded when trying to connect|too many clients|the database system is (starting|shutting) up/i.test(message)) return true;
    current = e.cause;
  }
  return false;
}
