// The development server's front over real sockets: a stand-in for `next dev` echoes what reached it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, parseTrustedProxies } from "@/lib/http/client-address";
import { startDevFront, type DevFront } from "@/lib/http/dev-front";

let upstream: Server;
let front: DevFront;
let frontPort: number;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res
        .writeHead(201, { "content-type": "application/json" })
        .end(JSON.stringify({ url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  frontPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  front = await startDevFront({
    port: frontPort,
    targetPort: (upstream.address() as AddressInfo).port,
    trusted: parseTrustedProxies(""),
  });
});

afterAll(async () => {
  await front.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe("the development front", () => {
  it("relays method, path, body and answer, and sets the client address from the socket", async () => {
    const res = await fetch(`http://127.0.0.1:${frontPort}/api/x?q=1`, {
      method: "POST",
      headers: {
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
        [CLIENT_ADDRESS_HEADER]: "203.0.113.9",
        "content-type": "application/json",
      },
      body: '{"a":1}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const seen = (await res.json()) as { url: string; headers: Record<string, string>; body: string };
    expect(seen.url).toBe("/api/x?q=1");
    expect(seen.body).toBe('{"a":1}');
    expect(seen.headers[CLIENT_ADDRESS_HEADER]).toBe("127.0.0.1");
    expect(seen.headers["x-forwarded-for"]).toBeUndefined();
    expect(seen.headers["x-forwarded-proto"]).toBeUndefined();
    expect(seen.headers.host).toBe(`127.0.0.1:${frontPort}`);
  });
});
