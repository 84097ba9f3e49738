// What a failed database call means, read from the error and its causes: Prisma wraps the driver's error,
// which may wrap a socket's, so every test here walks the whole cause chain. And the one way the HTTP
// edges (/v1, the dashboard API, /oauth/token) log a failure nobody planned for, before each turns it into
// its own answer shape (503 when the database is away, else 500).
import { errorFields, log } from "@/lib/log";

type ErrorLink = {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { code?: unknown; driverAdapterError?: unknown };
};

/**
 * The error and each error under it, once each (a cause may point back up the chain): its `cause`, and the
 * driver adapter's error that Prisma keeps under `meta` for a raw query (P2010).
 */
export function* causeChain(err: unknown): Generator<ErrorLink> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const e = current as ErrorLink;
    yield e;
    queue.push(e.cause, e.meta?.driverAdapterError);
  }
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "57P01",
  "57P03",
  "53300",
  "P1001",
  "P1017",
]);
// "Can't reach database server": Prisma's adapter when PostgreSQL is down or restarting (tests/integration/db-restart.test.ts).
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|Can't reach database server|Connection terminated|timeout exceeded when trying to connect|too many clients|the database system is (starting|shutting) up/i;

/** PostgreSQL or the pool could not be reached: worth a retry later (503), not a bug (500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

// serialization_failure, deadlock_detected, lock_not_available (lock_timeout, NOWAIT), query_canceled
// (statement_timeout): the statement or transaction was rolled back and may well succeed when run again.
const TRANSIENT_CODES = new Set(["40001", "40P01", "55P03", "57014"]);
// The driver adapter's names for some of them (Prisma reports a raw query's error under these kinds).
const TRANSIENT_KINDS = new Set(["TransactionWriteConflict", "ConnectionClosed", "SocketTimeout"]);

/**
 * A failure that running the same statement or transaction again soon may not meet: the database briefly
 * away or its connection dropped (isDatabaseUnavailable), a serialization failure, a deadlock, a lock or
 * statement timeout. Only for work that is rolled back whole when it fails.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  for (const e of causeChain(err)) {
    for (const code of [e.code, e.originalCode]) if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
    const kind = (e as { kind?: unknown }).kind;
    if (typeof kind === "string" && TRANSIENT_KINDS.has(kind)) return true;
  }
  return false;
}

/**
 * PostgreSQL's unique_violation, as Prisma reports it (P2002 from a model query; P2010 from a raw query, with
 * the driver adapter's error under meta) or as the driver does (23505).
 */
export function isUniqueViolation(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e.code === "P2002" || e.code === "23505" || e.originalCode === "23505" || e.meta?.code === "23505") return true;
  }
  return false;
}

export type UnexpectedFailure = { unavailable: boolean };

/**
 * Logs an error no handler expected, as "database unavailable" or "unhandled error" with the request id,
 * and says which it was; the caller answers in its own shape.
 */
export function logUnexpectedFailure(err: unknown, requestId: string): UnexpectedFailure {
  const unavailable = isDatabaseUnavailable(err);
  log("error", unavailable ? "database unavailable" : "unhandled error", { requestId, ...errorFields(err) });
  return { unavailable };
}
