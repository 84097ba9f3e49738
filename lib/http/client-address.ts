// Who the client is. X-Forwarded-For, X-Real-IP and X-Forwarded-Proto/Host are written by whoever sends
// the request, so they are believed only when the connection comes from a proxy the operator named in
// TRUSTED_PROXIES (a hop count, or a list of addresses/CIDRs). With none, the socket's peer is the client.
// Otherwise the client is the rightmost untrusted entry: walking from the socket leftwards through
// X-Forwarded-For, each trusted hop is skipped (a client can prepend anything, but not append after the
// proxy that saw it). Our HTTP server (lib/http/production-server.ts, and the front of `npm run dev`)
// resolves this once per request and hands it to Next in CLIENT_ADDRESS_HEADER, after removing any copy
// the client sent, and removes the forwarding headers an untrusted peer sent.
import { BlockList, isIP } from "node:net";

/** Set by our own server on every request it hands to Next; a client's copy is removed first. */
export const CLIENT_ADDRESS_HEADER = "x-rx-client-address";

/**
 * Set by our own server when a trusted proxy named the public host (X-Forwarded-Host, with -Proto): the
 * origin it was reached at, e.g. `https://rx.pharmacy.example`. Next overwrites X-Forwarded-Host with the
 * Host header when none came, so this is how code behind Next tells a proxy's word from the socket's.
 */
export const FORWARDED_ORIGIN_HEADER = "x-rx-forwarded-origin";

/** Forwarding headers only a trusted proxy may set. */
export const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

export type TrustedProxies =
  { kind: "none" } | { kind: "hops"; count: number } | { kind: "list"; list: BlockList; text: string };

/** `::ffff:1.2.3.4` → `1.2.3.4`; brackets, zone ids and case removed; null when not an IP address. */
export function normalizeAddress(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let text = raw.trim();
  if (text.startsWith("[") && text.includes("]")) text = text.slice(1, text.indexOf("]"));
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  text = text.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped?.[1] && isIP(mapped[1]) === 4) return mapped[1];
  // An IPv4 address with a port (`1.2.3.4:5678`), as some proxies write it.
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  if (withPort?.[1]) text = withPort[1];
  return isIP(text) ? text : null;
}

/**
 * Parses TRUSTED_PROXIES: empty → none; a whole number → that many hops; otherwise a comma-separated list
 * of IPv4/IPv6 addresses or CIDRs. Throws an Error with a message naming the bad entry.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = (value ?? "").trim();
  if (text === "" || text === "0" || text.toLowerCase() === "none") return { kind: "none" };
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count > 20) throw new Error("must be a hop count of at most 20, or a list of addresses/CIDRs");
    return { kind: "hops", count };
  }
  const list = new BlockList();
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [addressPart = "", bitsPart, extra] = entry.split("/");
    const address = normalizeAddress(addressPart);
    const family = address ? isIP(address) : 0;
    if (!address || extra !== undefined)
      throw new Error(`"${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, fd00::/8, 203.0.113.7)`);
    const max = family === 4 ? 32 : 128;
    const bits = bitsPart === undefined ? max : /^\d{1,3}$/.test(bitsPart) ? Number(bitsPart) : NaN;
    if (!(bits >= 0 && bits <= max)) throw new Error(`"${entry}" has a prefix length outside 0-${max}`);
    list.addSubnet(address, bits, family === 4 ? "ipv4" : "ipv6");
  }
  return { kind: "list", list, text };
}

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  if (trusted.kind !== "list") return false;
  return trusted.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

export type ResolvedClient = {
  /** The client's address, normalized; null only when the socket had none. */
  address: string | null;
  /** The socket's peer is a trusted proxy: its X-Forwarded-Proto/Host may be believed. */
  viaTrustedProxy: boolean;
};

/** The client of a request that reached us from `socketAddress` carrying this X-Forwarded-For. */
export function resolveClient(
  socketAddress: string | null | undefined,
  forwardedFor: string | null | undefined,
  trusted: TrustedProxies,
): ResolvedClient {
  const socket = normalizeAddress(socketAddress);
  if (trusted.kind === "none" || !socket) return { address: socket, viaTrustedProxy: false };
  // Nearest first: the socket's peer, then X-Forwarded-For from right to left.
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .reverse();
  if (trusted.kind === "hops") {
    if (trusted.count === 0) return { address: socket, viaTrustedProxy: false };
    // `count` proxies in front of us: the socket is the first of them, and each one appended its peer.
    const chain = [socket, ...hops];
    const index = Math.min(trusted.count, chain.length - 1);
    // An unreadable entry (not what a proxy writes) leaves the nearest address we can stand behind.
    return { address: normalizeAddress(chain[index]) ?? socket, viaTrustedProxy: true };
  }
  if (!isTrusted(socket, trusted)) return { address: socket, viaTrustedProxy: false };
  let client = socket;
  for (const hop of hops) {
    const address = normalizeAddress(hop);
    // An unreadable entry was not written by a trusted proxy: stop at the last address we can stand behind.
    if (!address) break;
    client = address;
    if (!isTrusted(address, trusted)) break;
  }
  return { address: client, viaTrustedProxy: true };
}

/** The client address our server resolved for this request (see above); null when it did not pass through it. */
export function clientAddressFromHeaders(headers: { get(name: string): string | null }): string | null {
  return normalizeAddress(headers.get(CLIENT_ADDRESS_HEADER));
}

type NodeRequestLike = {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; encrypted?: boolean };
};

const firstValue = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim();

/** A host as X-Forwarded-Host carries it: a name or address, an optional port; nothing else. */
const FORWARDED_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)(:\d{1,5})?$/i;

/** The origin a trusted proxy says it was reached at, or null when it named no (well-formed) host. */
function forwardedOrigin(req: NodeRequestLike): string | null {
  const host = firstValue(req.headers["x-forwarded-host"])?.toLowerCase();
  if (!host || !FORWARDED_HOST.test(host)) return null;
  const proto = firstValue(req.headers["x-forwarded-proto"])?.toLowerCase();
  const scheme = proto === "https" || proto === "http" ? proto : req.socket.encrypted ? "https" : "http";
  return `${scheme}://${host}`;
}

/**
 * Run by our server on each request before anything reads its headers: sets CLIENT_ADDRESS_HEADER (a
 * client's own copy is overwritten) and, unless the peer is a trusted proxy, removes the forwarding headers,
 * so that Next fills X-Forwarded-Proto/Host from the socket itself and nothing downstream believes the client;
 * a trusted proxy's public host is handed on in FORWARDED_ORIGIN_HEADER.
 */
export function applyClientAddress(req: NodeRequestLike, trusted: TrustedProxies): ResolvedClient {
  const forwarded = req.headers["x-forwarded-for"];
  const resolved = resolveClient(
    req.socket.remoteAddress,
    Array.isArray(forwarded) ? forwarded.join(", ") : forwarded,
    trusted,
  );
  delete req.headers[CLIENT_ADDRESS_HEADER];
  delete req.headers[FORWARDED_ORIGIN_HEADER];
  if (resolved.address) req.headers[CLIENT_ADDRESS_HEADER] = resolved.address;
  if (!resolved.viaTrustedProxy) for (const name of FORWARDING_HEADERS) delete req.headers[name];
  else {
    const origin = forwardedOrigin(req);
    if (origin) req.headers[FORWARDED_ORIGIN_HEADER] = origin;
  }
  return resolved;
}
