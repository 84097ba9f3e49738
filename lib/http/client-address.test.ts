import { describe, expect, it } from "vitest";
import {
  applyClientAddress,
  CLIENT_ADDRESS_HEADER,
  FORWARDED_ORIGIN_HEADER,
  normalizeAddress,
  parseTrustedProxies,
  resolveClient,
} from "@/lib/http/client-address";

const none = parseTrustedProxies("");

describe("normalizeAddress", () => {
  it("unwraps IPv4-mapped IPv6, brackets, zones and ports; refuses what is not an address", () => {
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("192.0.2.1:5678")).toBe("192.0.2.1");
    expect(normalizeAddress("=2+5")).toBeNull();
    expect(normalizeAddress("unknown")).toBeNull();
    expect(normalizeAddress("")).toBeNull();
  });
});

describe("parseTrustedProxies", () => {
  it("reads none, a hop count, or addresses and CIDRs of both families", () => {
    expect(parseTrustedProxies(undefined).kind).toBe("none");
    expect(parseTrustedProxies("0").kind).toBe("none");
    expect(parseTrustedProxies("2")).toEqual({ kind: "hops", count: 2 });
    expect(parseTrustedProxies("10.0.0.0/8, fd00::/8, 203.0.113.7, ::1").kind).toBe("list");
  });
  it("names a bad entry", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
    expect(() => parseTrustedProxies("proxy.local")).toThrow(/proxy.local/);
    expect(() => parseTrustedProxies("10.0.0.0/8/1")).toThrow();
    expect(() => parseTrustedProxies("99")).toThrow(/at most 20/);
  });
});

describe("resolveClient", () => {
  it("without trusted proxies: the socket's address, whatever X-Forwarded-For says", () => {
    expect(resolveClient("::ffff:127.0.0.1", "203.0.113.77", none)).toEqual({
      address: "127.0.0.1",
      viaTrustedProxy: false,
    });
  });

  it("with a hop count: the entry that many hops from the socket, never further left", () => {
    const one = parseTrustedProxies("1");
    expect(resolveClient("10.0.0.2", "6.6.6.6, 198.51.100.7", one).address).toBe("198.51.100.7");
    expect(resolveClient("10.0.0.2", "", one).address).toBe("10.0.0.2");
    const two = parseTrustedProxies("2");
    expect(resolveClient("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.9", two).address).toBe("198.51.100.7");
    // Fewer entries than hops: the leftmost there is (the client sent none of its own).
    expect(resolveClient("10.0.0.2", "198.51.100.7", two).address).toBe("198.51.100.7");
  });

  it("with a list: the rightmost untrusted entry, skipping trusted ones from the right", () => {
    const list = parseTrustedProxies("10.0.0.0/8, 2001:db8:1::/48");
    expect(resolveClient("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.1.1.1", list).address).toBe("198.51.100.7");
    expect(resolveClient("2001:db8:1::5", "2001:db8:2::9", list).address).toBe("2001:db8:2::9");
    expect(resolveClient("::ffff:10.0.0.2", "::ffff:198.51.100.7", list).address).toBe("198.51.100.7");
    // A peer that is not a trusted proxy is the client, and its forwarding headers are not believed.
    expect(resolveClient("198.51.100.9", "6.6.6.6", list)).toEqual({ address: "198.51.100.9", viaTrustedProxy: false });
    // All trusted: the leftmost (an internal client).
    expect(resolveClient("10.0.0.2", "10.0.0.3", list).address).toBe("10.0.0.3");
    // An unreadable entry stops the walk at the last address a trusted proxy vouched for.
    expect(resolveClient("10.0.0.2", "6.6.6.6, =2+5, 10.0.0.4", list).address).toBe("10.0.0.4");
  });
});

describe("applyClientAddress", () => {
  it("overwrites a client's internal header and removes forwarding headers an untrusted peer sent", () => {
    const req = {
      socket: { remoteAddress: "::ffff:198.51.100.9" },
      headers: {
        [CLIENT_ADDRESS_HEADER]: "6.6.6.6",
        "x-forwarded-for": "6.6.6.6",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example",
        "x-real-ip": "6.6.6.6",
      } as Record<string, string | undefined>,
    };
    applyClientAddress(req, none);
    expect(req.headers).toEqual({ [CLIENT_ADDRESS_HEADER]: "198.51.100.9" });
  });

  it("keeps a trusted proxy's forwarding headers", () => {
    const req = {
      socket: { remoteAddress: "10.0.0.2" },
      headers: { "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https" } as Record<
        string,
        string | undefined
      >,
    };
    applyClientAddress(req, parseTrustedProxies("10.0.0.0/8"));
    expect(req.headers).toMatchObject({ [CLIENT_ADDRESS_HEADER]: "198.51.100.7", "x-forwarded-proto": "https" });
  });

  it("hands on a trusted proxy's X-Forwarded-Host and -Proto as the public origin, and a client's copy never", () => {
    const trusted = {
      socket: { remoteAddress: "10.0.0.2" },
      headers: {
        [FORWARDED_ORIGIN_HEADER]: "https://evil.example",
        "x-forwarded-host": "rx.pharmacy.test",
        "x-forwarded-proto": "https",
      } as Record<string, string | undefined>,
    };
    applyClientAddress(trusted, parseTrustedProxies("10.0.0.0/8"));
    expect(trusted.headers[FORWARDED_ORIGIN_HEADER]).toBe("https://rx.pharmacy.test");

    const untrusted = {
      socket: { remoteAddress: "198.51.100.9" },
      headers: {
        [FORWARDED_ORIGIN_HEADER]: "https://evil.example",
        "x-forwarded-host": "evil.example",
      } as Record<string, string | undefined>,
    };
    applyClientAddress(untrusted, parseTrustedProxies("10.0.0.0/8"));
    expect(untrusted.headers[FORWARDED_ORIGIN_HEADER]).toBeUndefined();

    // A host that is not a host (a path, userinfo) is not an origin.
    const odd = {
      socket: { remoteAddress: "10.0.0.2" },
      headers: { "x-forwarded-host": "evil.example/x@y" } as Record<string, string | undefined>,
    };
    applyClientAddress(odd, parseTrustedProxies("10.0.0.0/8"));
    expect(odd.headers[FORWARDED_ORIGIN_HEADER]).toBeUndefined();
  });
});
