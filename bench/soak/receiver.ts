// The soak's stand-in for the senders' callback endpoints: a node:http server on 127.0.0.1 that keeps one
// port for its whole life and can be taken down (listening socket closed, open connections cut, so
// connections are refused), made to answer 500/503, and brought back. Every request is recorded with its
// webhook headers, raw body, arrival time and the status it was answered with.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ReceiverMode = "up" | "failing" | "down";

export type Delivery = {
  path: string;
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Date.now() when the body had fully arrived. */
  at: number;
  /** What the receiver answered (0: the connection was cut before an answer). */
  status: number;
};

export type SoakReceiver = {
  baseUrl: string;
  mode(): ReceiverMode;
  setMode(mode: ReceiverMode): Promise<void>;
  deliveries(): readonly Delivery[];
  /** Webhook-ids answered with a 2xx at least once. */
  deliveredIds(): ReadonlySet<string>;
  /** Seconds the receiver spent down (refusing) and failing (5xx), so far. */
  outageSeconds(): { down: number; failing: number };
  close(): Promise<void>;
};

const header = (req: IncomingMessage, name: string): string => {
  const value = req.headers[name];
  return typeof value === "string" ? value : "";
};

export async function startSoakReceiver(): Promise<SoakReceiver> {
  const records: Delivery[] = [];
  const delivered = new Set<string>();
  const sockets = new Set<Socket>();
  let mode: ReceiverMode = "up";
  let modeSince = Date.now();
  const spent = { down: 0, failing: 0 };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const status = mode === "failing" ? (Math.random() < 0.5 ? 500 : 503) : 204;
      const record: Delivery = {
        path: (req.url ?? "/").split("?")[0] ?? "/",
        webhookId: header(req, "webhook-id"),
        timestamp: header(req, "webhook-timestamp"),
        signature: header(req, "webhook-signature"),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        status,
      };
      records.push(record);
      if (status >= 200 && status < 300) delivered.add(record.webhookId);
      res.writeHead(status, status === 204 ? {} : { "content-type": "text/plain" });
      res.end(status === 204 ? "" : "receiver is having a bad moment\n");
    });
  };

  const server: Server = createServer({ keepAliveTimeout: 5_000 }, handle);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;

  const account = () => {
    const seconds = (Date.now() - modeSince) / 1000;
    if (mode === "down") spent.down += seconds;
    if (mode === "failing") spent.failing += seconds;
    modeSince = Date.now();
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    mode: () => mode,
    setMode: async (next) => {
      if (next === mode) return;
      account();
      const wasDown = mode === "down";
      mode = next;
      if (next === "down") await stopListening();
      else if (wasDown) await listen(port);
    },
    deliveries: () => records,
    deliveredIds: () => delivered,
    outageSeconds: () => {
      account();
      return { down: Math.round(spent.down), failing: Math.round(spent.failing) };
    },
    close: async () => {
      account();
      if (mode !== "down") await stopListening();
      mode = "down";
    },
  };
}
