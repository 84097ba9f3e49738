// The scale-out soak's balancer (bench/soak/balancer.ts) over real sockets: it must pass a whole answer on
// and a cut one on as a cut, or the soak would judge the product by the balancer's mistakes.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "@/bench/soak/balancer";

const opened: { close(): unknown }[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function instance(handler: RequestListener): Promise<number> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  opened.push({ close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) });
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const port = await instance(() => {});
  await opened.pop()!.close();
  return port;
}

async function balancer(ports: number[]): Promise<Balancer> {
  const b = await startBalancer(
    ports.map((port) => ({ port, isUp: () => true })),
    await freePort(),
  );
  opened.push(b);
  return b;
}

describe("soak balancer", () => {
  it("passes a whole answer on, with its status, body and end-to-end headers", async () => {
    const port = await instance((req, res) => {
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1", connection: "close" });
      res.end(JSON.stringify({ method: req.method, url: req.url }));
    });
    const b = await balancer([port]);
    const answer = await fetch(`${b.baseUrl}/api/x?y=1`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("x-request-id")).toBe("r1");
    expect(await answer.json()).toEqual({ method: "POST", url: "/api/x?y=1" });
  });

  it("passes a body cut by a dying instance on as a cut, never as a short 2xx", async () => {
    // The instance answers Connection: close (the balancer asks it to); undici would end such a response
    // at the socket's close and call the part a whole body, were that header passed on to the client.
    const port = await instance((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"referenceID":');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const b = await balancer([port]);
    const read = fetch(`${b.baseUrl}/api/transfers/t/approve`, { method: "POST", body: "{}" }).then((a) => a.text());
    await expect(read).rejects.toThrow();
  });

  it("sends a request whose connection is refused to the next instance, and answers 503 with none left", async () => {
    const up = await instance((_req, res) => res.end("up"));
    const down = await freePort();
    const b = await balancer([down, up]);
    const answers = await Promise.all([1, 2, 3].map(() => fetch(b.baseUrl).then((a) => a.text())));
    expect(answers).toEqual(["up", "up", "up"]);
    const none = await balancer([down]);
    const refused = await fetch(none.baseUrl);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
  });
});
