// SSRF guard for callback URLs: an admin types the URL, and our server then POSTs to it, so it must not
// become a way to reach our own network. A host name is resolved once per attempt; every address it resolves
// to must be a public unicast address; the connection then goes to that checked address (pinned), so a second
// DNS answer cannot swap in another one (kept-alive connections: callback-connections.ts). CALLBACK_ALLOW_PRIVATE_NETWORKS=true lifts the address rule for local
// development and tests.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type Range4 = { base: number; bits: number; reason: string };

const ip4 = (text: string): number => {
  const parts = text.split(".").map(Number);
  return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
};

// Most specific first: the first range that matches names the reason.
const IPV4_DENIED: Range4[] = [
  { base: ip4("169.254.169.254"), bits: 32, reason: "cloud metadata address" },
  { base: ip4("0.0.0.0"), bits: 8, reason: "unspecified address" },
  { base: ip4("10.0.0.0"), bits: 8, reason: "private address" },
  { base: ip4("100.64.0.0"), bits: 10, reason: "shared (carrier-grade NAT) address" },
  { base: ip4("127.0.0.0"), bits: 8, reason: "loopback address" },
  { base: ip4("169.254.0.0"), bits: 16, reason: "link-local address" },
  { base: ip4("172.16.0.0"), bits: 12, reason: "private address" },
  { base: ip4("192.0.0.0"), bits: 24, reason: "IETF protocol address" },
  { base: ip4("192.0.2.0"), bits: 24, reason: "documentation address" },
  // Deprecated 6to4 relay anycast (RFC 7526): whoever answers there is not a partner.
  { base: ip4("192.88.99.0"), bits: 24, reason: "6to4 relay anycast address" },
  { base: ip4("192.168.0.0"), bits: 16, reason: "private address" },
  { base: ip4("198.18.0.0"), bits: 15, reason: "benchmarking address" },
  { base: ip4("198.51.100.0"), bits: 24, reason: "documentation address" },
  { base: ip4("203.0.113.0"), bits: 24, reason: "documentation address" },
  { base: ip4("224.0.0.0"), bits: 4, reason: "multicast address" },
  { base: ip4("240.0.0.0"), bits: 4, reason: "reserved address" },
];

function inRange4(value: number, range: Range4): boolean {
  if (range.bits === 0) return true;
  const mask = range.bits === 32 ? 0xffffffff : (~0 << (32 - range.bits)) >>> 0;
  return (value & mask) >>> 0 === (range.base & mask) >>> 0;
}

function classifyIPv4(text: string): AddressVerdict {
  const value = ip4(text);
  const hit = IPV4_DENIED.find((range) => inRange4(value, range));
  return hit ? { allowed: false, reason: hit.reason } : { allowed: true };
}

/** The 8 groups of an IPv6 address (with any embedded dotted IPv4 tail converted), or null. */
export function parseIPv6(text: string): number[] | null {
  let address = text.toLowerCase();
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  if (isIP(address) !== 6) return null;
  const lastColon = address.lastIndexOf(":");
  const tail = address.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = ip4(tail);
    address = `${address.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length > 1 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length > 1 ? missing < 0 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length > 1 ? missing : 0).fill("0"), ...rest].map((g) =>
    parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const embeddedIPv4 = (g: number[]): string =>
  [(g[6] ?? 0) >> 8, (g[6] ?? 0) & 0xff, (g[7] ?? 0) >> 8, (g[7] ?? 0) & 0xff].join(".");

function classifyIPv6(text: string): AddressVerdict {
  const g = parseIPv6(text);
  if (!g) return { allowed: false, reason: "unreadable address" };
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return { allowed: false, reason: "unspecified address" };
  if (zeroUpTo(7) && g7 === 1) return { allowed: false, reason: "loopback address" };
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d) and the
  // NAT64 well-known prefix (64:ff9b::a.b.c.d) all lead to an IPv4 address: judge that address.
  const mapped = zeroUpTo(5) && g5 === 0xffff;
  const translated = zeroUpTo(4) && g4 === 0xffff && g5 === 0;
  const compatible = zeroUpTo(6);
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || translated || compatible || nat64) {
    const verdict = classifyIPv4(embeddedIPv4(g));
    return verdict.allowed ? verdict : { allowed: false, reason: `${verdict.reason} (IPv4 inside IPv6)` };
  }
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) {
    return { allowed: false, reason: "cloud metadata address" };
  }
  if ((g0 & 0xfe00) === 0xfc00) return { allowed: false, reason: "private address (unique local)" };
  if ((g0 & 0xffc0) === 0xfe80) return { allowed: false, reason: "link-local address" };
  if ((g0 & 0xffc0) === 0xfec0) return { allowed: false, reason: "site-local address" };
  if ((g0 & 0xff00) === 0xff00) return { allowed: false, reason: "multicast address" };
  if (g0 === 0x2001 && g1 === 0x0db8) return { allowed: false, reason: "documentation address" };
  // From IANA's IPv6 special-purpose registry, the blocks that are not globally reachable unicast:
  // local-use NAT64 (RFC 8215; it may translate to any IPv4 address, private ones included), Teredo
  // (RFC 4380; tunnels to an embedded, obfuscated IPv4 address), benchmarking, ORCHID, the newer
  // documentation block, SRv6 SIDs and the dummy prefix (RFC 9780).
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return { allowed: false, reason: "local-use NAT64 address" };
  if (g0 === 0x2001 && g1 === 0) return { allowed: false, reason: "Teredo tunnel address" };
  if (g0 === 0x2001 && g1 === 2 && g2 === 0) return { allowed: false, reason: "benchmarking address" };
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x10) return { allowed: false, reason: "ORCHID address" };
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x20) return { allowed: false, reason: "ORCHID address" };
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return { allowed: false, reason: "documentation address" };
  if (g0 === 0x5f00) return { allowed: false, reason: "SRv6 SID address" };
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 1) return { allowed: false, reason: "dummy IPv6 prefix address" };
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return { allowed: false, reason: "discard-only address" };
  if (g0 === 0x2002) {
    // 6to4: the IPv4 address sits in groups 1-2.
    const verdict = classifyIPv4([g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff].join("."));
    return verdict.allowed ? verdict : { allowed: false, reason: `${verdict.reason} (IPv4 inside 6to4)` };
  }
  return { allowed: true };
}

/** Whether a callback may be sent to this IP address (IPv4 or IPv6 text), and if not, why. */
export function classifyAddress(address: string): AddressVerdict {
  const version = isIP(address.includes("%") ? address.slice(0, address.indexOf("%")) : address);
  if (version === 4) return classifyIPv4(address);
  if (version === 6) return classifyIPv6(address);
  return { allowed: false, reason: "not an IP address" };
}

/** A callback that must not be sent to where its URL points. */
export class CallbackAddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CallbackAddressRefused";
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The host of a URL as DNS and isIP understand it (IPv6 literals without their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Resolves the host once and returns the address to connect to. Throws CallbackAddressRefused when any
 * address of the answer is not public (unless private networks are allowed), and a plain Error when the
 * name does not resolve.
 */
export async function resolveCallbackHost(
  hostname: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<ResolvedAddress> {
  const literal = isIP(hostname);
  const answers: ResolvedAddress[] = literal
    ? [{ address: hostname, family: literal === 6 ? 6 : 4 }]
    : await (opts.resolve ?? systemResolver)(hostname);
  if (!opts.allowPrivate) {
    for (const answer of answers) {
      const verdict = classifyAddress(answer.address);
      if (!verdict.allowed) {
        throw new CallbackAddressRefused(
          `callback address refused: ${literal ? hostname : `${hostname} resolves to ${answer.address}`}, a ${verdict.reason}`,
        );
      }
    }
  }
  const [first] = answers;
  if (!first) throw new Error(`${hostname} does not resolve to any address`);
  return first;
}
