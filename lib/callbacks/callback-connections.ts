// Keep-alive connections for callbacks, one pool per partner origin AND checked address. Every attempt
// still resolves the host and runs the network guard (post-callback.ts) before it asks for a pool, and the
// pool is chosen by the address that check approved: a connection is only ever reused for the very address
// it was opened to. When the host's address changes, the pools of its old addresses are closed, so no
// request can ride a socket to an address the latest check did not approve; a refused address never gets
// a pool at all. Each new connection of a pool dials the pinned address (no second DNS answer can swap it)
// and is dropped if the socket's peer is anything else.
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { parseIPv6, type ResolvedAddress } from "@/lib/callbacks/network-guard";

/** Idle sockets are closed after this long: under Node's default server keep-alive (5 s), to avoid reusing one the partner is closing. */
const IDLE_MS = 4_000;
/**
 * Connections at most, so requests in flight at most, from one worker to one partner origin: a batching
 * worker may have WORKER_CONCURRENCY × CALLBACK_BATCH_SIZE POSTs ready at once (128 by default); the rest
 * wait for a free connection, inside their attempt's deadline. A receiver answered 384/s at 32 in flight
 * in the bench, more than one worker sends (bench/HISTORY.md).
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 32;
/** Pools kept at once; the least recently used beyond this are closed. */
const MAX_POOLS = 256;

type Pool = { origin: string; address: string; agent: http.Agent };

const pools = new Map<string, Pool>();
/** The address each origin's connections currently go to. */
const currentAddress = new Map<string, string>();

function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

/** The same address, however it is written (IPv6 zeros, IPv4-mapped). */
function isSameAddress(a: string, b: string): boolean {
  const plain = (x: string) => x.replace(/^::ffff:(?=\d+\.)/i, "");
  const [x, y] = [plain(a), plain(b)];
  if (isIP(x) === 4 || isIP(y) === 4) return x === y;
  const [gx, gy] = [parseIPv6(x), parseIPv6(y)];
  return gx !== null && gy !== null && gx.every((g, i) => g === gy[i]);
}

/** Drops a new connection whose peer is not the checked address (belt and braces over the pinned lookup). */
function guardSocket(socket: Socket, pinned: ResolvedAddress): void {
  socket.once("connect", () => {
    const peer = socket.remoteAddress;
    if (!peer || !isSameAddress(peer, pinned.address))
      socket.destroy(new Error(`connected to ${peer ?? "?"}, not the checked ${pinned.address}`));
  });
}

function createPool(isHttps: boolean, origin: string, pinned: ResolvedAddress): Pool {
  const options = {
    keepAlive: true,
    timeout: IDLE_MS,
    maxSockets: MAX_CONNECTIONS_PER_ORIGIN,
    lookup: pinnedLookup(pinned),
  };
  const agent = isHttps ? new https.Agent(options) : new http.Agent(options);
  const createConnection = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
  agent.createConnection = ((...args: unknown[]) => {
    const socket = createConnection(...args);
    guardSocket(socket, pinned);
    return socket;
  }) as typeof agent.createConnection;
  return { origin, address: pinned.address, agent };
}

function closePool(key: string): void {
  const pool = pools.get(key);
  if (!pool) return;
  pools.delete(key);
  pool.agent.destroy();
}

/**
 * The keep-alive agent for requests to `url`'s origin at the address the network guard has just approved.
 * A different address than last time closes the origin's other pools first.
 */
export function callbackAgent(url: URL, pinned: ResolvedAddress): http.Agent {
  const isHttps = url.protocol === "https:";
  const origin = `${url.protocol}//${url.host}`;
  if (currentAddress.get(origin) !== pinned.address) {
    for (const [key, pool] of pools) if (pool.origin === origin) closePool(key);
    currentAddress.delete(origin); // re-inserted below: keeps the map in recency order too
    currentAddress.set(origin, pinned.address);
  }
  const key = `${origin} ${pinned.address}`;
  let pool = pools.get(key);
  if (pool) {
    pools.delete(key); // re-inserted: most recently used last
  } else {
    pool = createPool(isHttps, origin, pinned);
  }
  pools.set(key, pool);
  while (pools.size > MAX_POOLS) {
    const oldest = pools.keys().next().value;
    if (oldest === undefined) break;
    const evicted = pools.get(oldest);
    closePool(oldest);
    if (evicted && currentAddress.get(evicted.origin) === evicted.address) currentAddress.delete(evicted.origin);
  }
  return pool.agent;
}

/**
 * Closes the pools of an origin whose latest check refused its address or failed to resolve it, so that
 * no connection to the old address outlives that verdict.
 */
export function forgetCallbackOrigin(url: URL): void {
  const origin = `${url.protocol}//${url.host}`;
  currentAddress.delete(origin);
  for (const [key, pool] of pools) if (pool.origin === origin) closePool(key);
}

/** Closes every pooled connection (the worker's shutdown). */
export function closeCallbackConnections(): void {
  for (const key of [...pools.keys()]) closePool(key);
  currentAddress.clear();
}
