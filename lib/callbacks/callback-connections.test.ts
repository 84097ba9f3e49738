// Keep-alive callback connections against a real local server: a partner's connection is reused while its
// host keeps resolving to the same checked address, and never once the address changes: not to a refused
// address (no request leaves, the old connection is closed) and not to another allowed one (a new
// connection goes to the new address).
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeCallbackConnections, MAX_CONNECTIONS_PER_ORIGIN } from "@/lib/callbacks/callback-connections";
import type { ResolvedAddress, Resolver } from "@/lib/callbacks/network-guard";
import { postCallback } from "@/lib/callbacks/post-callback";

let server: Server;
let port: number;
const sockets: Socket[] = [];
const requests: { socket: Socket; localAddress: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push({ socket: req.socket, localAddress: req.socket.localAddress?.replace(/^::ffff:/, "") });
      res.writeHead(204).end();
    });
  });
  server.on("connection", (socket: Socket) => sockets.push(socket));
  // Every loopback address (127.0.0.2 too), so that an address change can land somewhere real.
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  closeCallbackConnections();
  sockets.length = 0;
  requests.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A resolver for partner.invalid whose answer the test changes between attempts. */
function changingResolver(): { resolve: Resolver; answer: (address: string) => void } {
  let current: ResolvedAddress = { address: "127.0.0.1", family: 4 };
  return {
    resolve: async (host) => (host === "partner.invalid" ? [current] : []),
    answer: (address) => (current = { address, family: 4 }),
  };
}

const attempt = (resolve: Resolver, allowPrivate = true) =>
  postCallback({
    url: `http://partner.invalid:${port}/cb`,
    body: "{}",
    headers: { "content-type": "application/json" },
    timeoutMs: 2000,
    allowPrivate,
    allowInsecureHttp: true,
    resolve,
  });

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

describe("keep-alive callback connections", () => {
  it("reuse one connection for attempts to the same checked address", async () => {
    const dns = changingResolver();
    for (let i = 0; i < 3; i++) expect((await attempt(dns.resolve)).statusCode).toBe(204);
    expect(requests).toHaveLength(3);
    expect(sockets).toHaveLength(1);
  });

  it("send nothing, and close the kept-alive connection, when the host's address changes to a refused one", async () => {
    const dns = changingResolver();
    expect((await attempt(dns.resolve)).statusCode).toBe(204);
    const [kept] = sockets;
    expect(kept?.destroyed).toBe(false);
    // The only address this machine can serve on is loopback, which only CALLBACK_ALLOW_PRIVATE_NETWORKS
    // admits; the second attempt runs under the production rule and the host now names the metadata address.
    dns.answer("169.254.169.254");
    const refused = await attempt(dns.resolve, false);
    expect(refused.statusCode).toBeNull();
    expect(refused.error).toMatch(
      /^callback address refused: partner\.invalid resolves to 169\.254\.169\.254, a cloud metadata address/,
    );
    expect(requests).toHaveLength(1);
    await closed(kept!);
    // Back to an allowed address: a new connection, not the old one.
    dns.answer("127.0.0.1");
    expect((await attempt(dns.resolve)).statusCode).toBe(204);
    expect(sockets).toHaveLength(2);
    expect(requests[1]?.socket).not.toBe(kept);
  });

  it("open a new connection to the new address when the host moves to another allowed address", async () => {
    const dns = changingResolver();
    expect((await attempt(dns.resolve)).statusCode).toBe(204);
    const [kept] = sockets;
    dns.answer("127.0.0.2");
    expect((await attempt(dns.resolve)).statusCode).toBe(204);
    expect(requests.map((r) => r.localAddress)).toEqual(["127.0.0.1", "127.0.0.2"]);
    expect(requests[1]?.socket).not.toBe(kept);
    await closed(kept!);
  });

  it("opens at most MAX_CONNECTIONS_PER_ORIGIN connections to one partner, however many POSTs are ready", async () => {
    const { resolve } = changingResolver();
    const count = MAX_CONNECTIONS_PER_ORIGIN + 16;
    const results = await Promise.all(
      Array.from({ length: count }, () =>
        postCallback({
          url: `http://partner.invalid:${port}/many`,
          body: "{}",
          headers: {},
          timeoutMs: 5000,
          allowPrivate: true,
          allowInsecureHttp: true,
          resolve,
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 204)).toBe(true);
    expect(requests).toHaveLength(count);
    expect(sockets.length).toBe(MAX_CONNECTIONS_PER_ORIGIN);
  });
});
