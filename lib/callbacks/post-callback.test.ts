// One HTTP attempt against a real local server: the resolved address is the one connected to (no second
// DNS lookup), the Host header keeps the URL's name, redirects are not followed, the deadline holds, and a
// huge answer is not read to its end.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "@/lib/callbacks/network-guard";
import { checkCallbackTarget, postCallback } from "@/lib/callbacks/post-callback";

let server: Server;
let port: number;
const seen: { url: string; host: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", host: req.headers.host, body });
      if (req.url === "/redirect") return void res.writeHead(307, { location: "/target" }).end();
      if (req.url === "/hang") return; // never answers
      if (req.url === "/huge") {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (res.write(chunk)) {
            /* until the socket pushes back */
          }
          res.once("drain", pump);
        };
        res.on("close", () => res.removeAllListeners("drain"));
        return pump();
      }
      res.writeHead(202, { "retry-after": "7" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const base = {
  body: '{"a":1}',
  headers: { "content-type": "application/json" },
  timeoutMs: 2000,
  allowPrivate: true,
  allowInsecureHttp: true,
};

describe("postCallback", () => {
  it("connects to the address resolved once, with the URL's name in the Host header", async () => {
    let lookups = 0;
    // Only this resolver knows the name: a second lookup through the system resolver would fail.
    const resolve: Resolver = async (host) => {
      lookups++;
      return host === "partner.invalid" ? [{ address: "127.0.0.1", family: 4 }] : [];
    };
    const result = await postCallback({ ...base, url: `http://partner.invalid:${port}/cb?x=1`, resolve });
    expect(result).toMatchObject({ statusCode: 202, error: null, retryAfter: "7", interrupted: false });
    expect(lookups).toBe(1);
    const request = seen.find((r) => r.url === "/cb?x=1");
    expect(request).toMatchObject({ host: `partner.invalid:${port}`, body: '{"a":1}' });
  });

  it("refuses a private address before connecting unless private networks are allowed", async () => {
    const before = seen.length;
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/private`, allowPrivate: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^callback address refused: 127\.0\.0\.1, a loopback address/);
    expect(seen.length).toBe(before);
  });

  it("refuses an http:// URL before connecting unless insecure http is allowed (an old URL in the database)", async () => {
    const before = seen.length;
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/plain`, allowInsecureHttp: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/only to https:\/\/ URLs/);
    expect(seen.length).toBe(before);
  });

  it("does not follow a redirect", async () => {
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/redirect` });
    expect(result).toMatchObject({ statusCode: 307, error: "redirect not followed" });
    expect(seen.some((r) => r.url === "/target")).toBe(false);
  });

  it("gives up at the deadline", async () => {
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/hang`, timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, error: "timeout: no answer within 300 ms", interrupted: false });
    expect(result.latencyMs).toBeGreaterThanOrEqual(295);
    expect(result.latencyMs).toBeLessThan(1500);
  });

  it("stops reading a huge answer and keeps its status", async () => {
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/huge` });
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.latencyMs).toBeLessThan(1500);
  });

  it("reports an abort by the caller as an interruption, not a failure of the partner", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/hang`, signal: controller.signal });
    expect(result).toMatchObject({
      statusCode: null,
      interrupted: true,
      error: "interrupted: the worker is shutting down",
    });
  });

  it("names connection failures", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const result = await postCallback({ ...base, url: `http://127.0.0.1:${closedPort}/` });
    expect(result).toMatchObject({ statusCode: null, error: "connection refused" });
  });

  it("sends a batch's POSTs on one check of the URL: one resolution, each to the pinned address", async () => {
    let lookups = 0;
    const resolve: Resolver = async (host) => {
      lookups++;
      return host === "batch.invalid" ? [{ address: "127.0.0.1", family: 4 }] : [];
    };
    const url = `http://batch.invalid:${port}/batch`;
    const target = checkCallbackTarget({ ...base, url, resolve });
    const results = await Promise.all([1, 2, 3].map(() => postCallback({ ...base, url, target })));
    expect(results.map((r) => r.statusCode)).toEqual([202, 202, 202]);
    expect(lookups).toBe(1);
    expect(seen.filter((r) => r.url === "/batch" && r.host === `batch.invalid:${port}`)).toHaveLength(3);
  });

  it("refuses every POST of a batch whose one check refused the address, sending nothing", async () => {
    const before = seen.length;
    const url = `http://127.0.0.1:${port}/refused-batch`;
    const target = checkCallbackTarget({ ...base, url, allowPrivate: false });
    const results = await Promise.all([1, 2].map(() => postCallback({ ...base, url, target })));
    for (const r of results) expect(r.error).toMatch(/^callback address refused: 127\.0\.0\.1, a loopback address/);
    expect(seen.length).toBe(before);
  });
});
