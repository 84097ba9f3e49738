// What this process knows about itself for /readyz: whether it is shutting down, and when its in-process
// callback worker last showed it was alive. Kept on globalThis: under `npm start` the Next bundle and the
// launcher (scripts/serve.ts) load their own copies of this module in one process, and must share it.
type Lifecycle = { shuttingDownSince: number | null; worker: { heartbeatAt: number } | null };

const KEY = Symbol.for("rx-transfer.ops.lifecycle");
const store = globalThis as unknown as { [KEY]?: Lifecycle };

function state(): Lifecycle {
  store[KEY] ??= { shuttingDownSince: null, worker: null };
  return store[KEY];
}

/** Called first on SIGTERM/SIGINT: from then on /readyz answers 503 so a load balancer drains us. */
export function markShuttingDown(): void {
  state().shuttingDownSince ??= Date.now();
}

export function isShuttingDown(): boolean {
  return state().shuttingDownSince !== null;
}

/** The in-process worker is alive and reached the database now. */
export function recordWorkerHeartbeat(at = Date.now()): void {
  state().worker = { heartbeatAt: at };
}

/** The worker stopped on purpose: it no longer counts. */
export function clearWorkerHeartbeat(): void {
  state().worker = null;
}

/** Milliseconds since the in-process worker's last heartbeat, or null when this process runs no worker. */
export function workerHeartbeatAgeMs(now = Date.now()): number | null {
  const worker = state().worker;
  return worker ? now - worker.heartbeatAt : null;
}
