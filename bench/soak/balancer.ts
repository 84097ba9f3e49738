// The scale-out soak's load balancer: round robin over the instances that are up, as a TCP/HTTP balancer
// with health checks does. A request whose connection to an instance is refused (nothing was sent) goes to
// the next one; one cut after it was sent is cut for the client too (it cannot know what happened: the
// sender retries with the same requestID, as it must). With no instance up it answers 503, as HAProxy does.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export type Backend = { port: number; isUp(): boolean };
export type Balancer = { baseUrl: string; perBackend(): number[]; close(): Promise<void> };

export async function startBalancer(backends: Backend[], port: number): Promise<Balancer> {
  let next = 0;
  const counts = backends.map(() => 0);

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number) => {
    const candidates = backends.map((b, i) => ({ b, i })).filter(({ b }) => b.isUp());
    if (candidates.length === 0 || tried >= backends.length) {
      res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" });
      res.end("no instance available\n");
      return;
    }
    const { b, i } = candidates[next++ % candidates.length]!;
    const upstream = request(
      {
        host: "127.0.0.1",
        port: b.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, connection: "close" },
      },
      (answer) => {
        counts[i]!++;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ECONNREFUSED" && !res.headersSent) forward(req, res, body, tried + 1);
      else res.destroy();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 0));
    req.on("error", () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    perBackend: () => [...counts],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
