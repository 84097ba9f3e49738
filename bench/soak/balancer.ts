// The scale-out soak's load balancer: round robin over the instances that are up, as a TCP/HTTP balancer
// with health checks does. A request whose connection to an instance is refused (nothing was sent) goes to
// another that is up; one cut after it was sent is cut for the client too (it cannot know what happened: the
// sender retries with the same requestID, as it must). With no instance up it answers 503, as HAProxy does.
// Hop-by-hop headers stay on their hop (RFC 9110 §7.6.1): the instance's `connection: close`, passed on,
// lets undici take a body cut by a killed instance for a whole one (it ends a non-keep-alive response at
// the socket's close), and a cut decision would then read as a 2xx with no body.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export type Backend = { port: number; isUp(): boolean };
export type Balancer = { baseUrl: string; perBackend(): number[]; close(): Promise<void> };

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

function endToEndHeaders(headers: IncomingMessage["headers"]): IncomingMessage["headers"] {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startBalancer(backends: Backend[], port: number): Promise<Balancer> {
  let next = 0;
  const counts = backends.map(() => 0);

  // `tried`: the instances that refused this request, so a retry goes to one it has not tried yet.
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: ReadonlySet<number>) => {
    const candidates = backends.map((b, i) => ({ b, i })).filter(({ b, i }) => b.isUp() && !tried.has(i));
    if (candidates.length === 0) {
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
        // The body was read whole here, so it goes on with its length whichever framing the client used.
        headers: { ...endToEndHeaders(req.headers), connection: "close", "content-length": String(body.length) },
      },
      (answer) => {
        counts[i]!++;
        res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ECONNREFUSED" && !res.headersSent) forward(req, res, body, new Set([...tried, i]));
      else res.destroy();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
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
