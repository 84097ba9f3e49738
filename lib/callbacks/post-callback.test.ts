// One HTTP attempt against a real local server: the resolved address is the one connected to (no second
// DNS lookup), the Host header keeps the URL's name, redirects are not followed, the deadline holds, and a
// huge answer is not read to its end.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "@/lib/callbacks/network-guard";
import { checkCallbackTarget, isSuccess, postCallback } from "@/lib/callbacks/post-callback";

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
      const sender = (type: string, status = 200, error?: object) =>
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify({ requestID: "r1", metadata: { responseType: type }, ...(error ? { error } : {}) }));
      if (req.url === "/rx-success") return sender("RX_CALLBACK_SUCCESS");
      if (req.url === "/rx-error-200")
        return sender("RX_CALLBACK_ERROR", 200, {
          type: "MISSING_INFO",
          description: "could not map callback - requestID is missing",
        });
      if (req.url === "/rx-error-400") return sender("RX_CALLBACK_ERROR", 400, { type: "OTHER", description: "no" });
      if (req.url === "/rx-unknown") return sender("SOMETHING_ELSE");
      if (req.url === "/rx-success-500") return sender("RX_CALLBACK_SUCCESS", 500);
      if (req.url === "/empty-204") return void res.writeHead(204).end();
      if (req.url === "/slow-body") {
        // The status line at once, then a body that never ends.
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"metadata":');
        return;
      }
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
    expect(result).toMatchObject({ statusCode: 200, error: null, sender: null });
    expect(result.excerpt?.length).toBeLessThanOrEqual(301);
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

  describe("reads the sender's answer (RX_CALLBACK_SUCCESS / RX_CALLBACK_ERROR)", () => {
    it("a 200 saying RX_CALLBACK_ERROR is the sender's refusal, with its error kept, not a delivery", async () => {
      const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/rx-error-200` });
      expect(result).toMatchObject({
        statusCode: 200,
        sender: {
          responseType: "RX_CALLBACK_ERROR",
          errorType: "MISSING_INFO",
          description: "could not map callback - requestID is missing",
        },
        error: "RX_CALLBACK_ERROR MISSING_INFO: could not map callback - requestID is missing",
      });
      expect(isSuccess(result)).toBe(false);
    });

    it("RX_CALLBACK_ERROR with a 4xx is a refusal too", async () => {
      const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/rx-error-400` });
      expect(result).toMatchObject({
        statusCode: 400,
        sender: { responseType: "RX_CALLBACK_ERROR", errorType: "OTHER" },
      });
      expect(isSuccess(result)).toBe(false);
    });

    it("a 2xx saying RX_CALLBACK_SUCCESS is delivered; an empty or plain 2xx stays a delivery", async () => {
      const ok = await postCallback({ ...base, url: `http://127.0.0.1:${port}/rx-success` });
      expect(ok).toMatchObject({ statusCode: 200, error: null, sender: { responseType: "RX_CALLBACK_SUCCESS" } });
      expect(isSuccess(ok)).toBe(true);
      const empty = await postCallback({ ...base, url: `http://127.0.0.1:${port}/empty-204` });
      expect(empty).toMatchObject({ statusCode: 204, error: null, sender: null, excerpt: null });
      expect(isSuccess(empty)).toBe(true);
      const plain = await postCallback({ ...base, url: `http://127.0.0.1:${port}/plain-ok` });
      expect(plain).toMatchObject({ statusCode: 202, error: null, sender: null, excerpt: "ok" });
      expect(isSuccess(plain)).toBe(true);
    });

    it("a 2xx of another responseType, or RX_CALLBACK_SUCCESS with a 5xx, is not delivered", async () => {
      const unknown = await postCallback({ ...base, url: `http://127.0.0.1:${port}/rx-unknown` });
      expect(unknown.error).toMatch(/responseType "SOMETHING_ELSE" is not RX_CALLBACK_SUCCESS/);
      expect(isSuccess(unknown)).toBe(false);
      const fiveHundred = await postCallback({ ...base, url: `http://127.0.0.1:${port}/rx-success-500` });
      expect(fiveHundred.statusCode).toBe(500);
      expect(isSuccess(fiveHundred)).toBe(false);
    });

    it("a body that never ends is a timeout at the deadline, not a hang and not a delivery", async () => {
      const result = await postCallback({ ...base, url: `http://127.0.0.1:${port}/slow-body`, timeoutMs: 300 });
      expect(result).toMatchObject({
        statusCode: 200,
        error: "timeout: the answer's body did not end within 300 ms",
        interrupted: false,
      });
      expect(result.latencyMs).toBeLessThan(1500);
      expect(isSuccess(result)).toBe(false);
    });
  });
});
