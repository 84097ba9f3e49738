import { describe, expect, it } from "vitest";
import {
  CallbackAddressRefused,
  classifyAddress,
  parseIPv6,
  resolveCallbackHost,
  type Resolver,
} from "@/lib/callbacks/network-guard";

const refused = (address: string) => {
  const verdict = classifyAddress(address);
  return verdict.allowed ? null : verdict.reason;
};

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["127.255.10.1", /loopback/],
    ["10.1.2.3", /private/],
    ["172.16.0.1", /private/],
    ["172.31.255.255", /private/],
    ["192.168.1.10", /private/],
    ["100.64.0.1", /shared/],
    ["100.127.255.254", /shared/],
    ["169.254.1.1", /link-local/],
    ["169.254.169.254", /metadata/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /reserved/],
    ["::", /unspecified/],
    ["::1", /loopback/],
    ["fe80::1", /link-local/],
    ["fe80::1%eth0", /link-local/],
    ["fc00::1", /private/],
    ["fd12:3456::1", /private/],
    ["fd00:ec2::254", /metadata/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /loopback.*IPv4 inside IPv6/],
    ["::ffff:7f00:1", /loopback/],
    ["::ffff:169.254.169.254", /metadata/],
    ["::ffff:10.0.0.1", /private/],
    ["::ffff:0:192.168.0.1", /private/],
    ["::127.0.0.1", /loopback/],
    ["64:ff9b::10.0.0.1", /private/],
    ["2002:c0a8:0101::1", /private.*6to4/],
    ["2001:db8::1", /documentation/],
    // IANA special-purpose blocks that were missing.
    ["64:ff9b:1::a00:1", /local-use NAT64/],
    ["64:ff9b:1:ffff::1", /local-use NAT64/],
    ["2001::1", /Teredo/],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
    ["192.88.99.1", /6to4 relay/],
    ["::ffff:192.88.99.1", /6to4 relay/],
    ["2002:c058:6301::1", /6to4 relay.*6to4/],
    ["2001:2::1", /benchmarking/],
    ["2001:10::1", /ORCHID/],
    ["2001:20::1", /ORCHID/],
    ["3fff::1", /documentation/],
    ["3fff:fff::1", /documentation/],
    ["5f00::1", /SRv6/],
    ["100:0:0:1::1", /dummy/],
    ["100::1", /discard/],
  ])("refuses %s", (address, reason) => {
    expect(refused(address)).toMatch(reason);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2a00:1450:4001:80b::200e",
    "2001:4860:4860::8888",
    "2001:1::1",
    "3fff:1000::1",
    "192.88.100.1",
  ])("allows the public address %s", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it("refuses what is not an IP address", () => {
    expect(refused("example.com")).toMatch(/not an IP/);
    expect(refused("1.2.3")).toMatch(/not an IP/);
  });
});

describe("parseIPv6", () => {
  it("expands :: and dotted tails", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("fd00:ec2::254")).toEqual([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]);
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1.2.3.4")).toBeNull();
  });
});

describe("resolveCallbackHost", () => {
  const answers =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("pins the first address of a public answer", async () => {
    await expect(
      resolveCallbackHost("partner.example", {
        allowPrivate: false,
        resolve: answers("93.184.216.34", "93.184.216.35"),
      }),
    ).resolves.toEqual({
      address: "93.184.216.34",
      family: 4,
    });
  });

  it("refuses a name when any address of the answer is not public (no picking the good one)", async () => {
    const attempt = resolveCallbackHost("rebind.example", {
      allowPrivate: false,
      resolve: answers("93.184.216.34", "127.0.0.1"),
    });
    await expect(attempt).rejects.toBeInstanceOf(CallbackAddressRefused);
    await expect(attempt).rejects.toThrow(/rebind\.example resolves to 127\.0\.0\.1, a loopback address/);
  });

  it("refuses IP literals without asking DNS", async () => {
    const resolve: Resolver = async () => {
      throw new Error("DNS must not be asked for a literal");
    };
    await expect(resolveCallbackHost("169.254.169.254", { allowPrivate: false, resolve })).rejects.toThrow(/metadata/);
    await expect(resolveCallbackHost("::1", { allowPrivate: false, resolve })).rejects.toThrow(/loopback/);
  });

  it("allows private answers only when private networks are allowed", async () => {
    await expect(
      resolveCallbackHost("localhost", { allowPrivate: true, resolve: answers("127.0.0.1") }),
    ).resolves.toEqual({ address: "127.0.0.1", family: 4 });
  });

  it("fails when the name has no address", async () => {
    await expect(resolveCallbackHost("nothing.example", { allowPrivate: false, resolve: answers() })).rejects.toThrow(
      /does not resolve/,
    );
  });
});
