// `npm run dev`'s front door. `next dev` cannot see who connected in a way route handlers can trust (it
// keeps a client's own X-Forwarded-For), so the development server listens here, resolves the client as
// the production server does (lib/http/client-address.ts), and relays the request, hot-reload WebSockets
// included, to `next dev` on a loopback-only port.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import { applyClientAddress, type TrustedProxies } from "@/lib/http/client-address";
import { listen } from "@/lib/http/listen";

export type DevFront = { close(): Promise<void> };

function rawHead(req: IncomingMessage): string {
  const lines = [`${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1`];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n`;
}

export async function startDevFront(opts: {
  port: number;
  targetPort: number;
  trusted: TrustedProxies;
}): Promise<DevFront> {
  const server: Server = createServer((req, res) => {
    applyClientAddress(req, opts.trusted);
    const upstream = httpRequest(
      { host: "127.0.0.1", port: opts.targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      // `next dev` is still starting, or went away.
      if (!res.headersSent)
        res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end("development server not ready; retry");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    applyClientAddress(req, opts.trusted);
    const upstream = connect(opts.targetPort, "127.0.0.1", () => {
      upstream.write(rawHead(req));
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await listen(server, opts.port);
  return {
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
