// A real HTTP server on 127.0.0.1 standing in for sending pharmacies' callback endpoints. Each test gives
// its partner its own path and scripts the answers to that path (status, headers, delay, holding the
// request open, a redirect); every request is recorded with its headers, raw body and arrival time.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";

export type ReceivedCallback = {
  path: string;
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Date.now() when the request's body had fully arrived. */
  at: number;
};

export type Answer = {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the client gives up or dies). */
  hold?: boolean;
};

export type CallbackReceiver = {
  /** http://127.0.0.1:<port>, or https://<tls.host>:<port> */
  baseUrl: string;
  /**
   * Answers for `path`, in order; once used up, the last one repeats (default: 204). With `perWebhookId`,
   * the sequence starts over for every webhook-id (every callback gets the same treatment).
   */
  script(path: string, answers: Answer[], opts?: { perWebhookId?: boolean }): void;
  requests(path?: string): ReceivedCallback[];
  /** Resolves with the requests to `path` once there are at least `count` (or rejects after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
};

/**
 * By default plain http at 127.0.0.1. With `tls`, https with that certificate (PEM), and `baseUrl` names
 * `tls.host` (a name the certificate holds, which the caller resolves to 127.0.0.1).
 */
export async function startCallbackReceiver(
  opts: { tls?: { key: string; cert: string; host: string } } = {},
): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  // Each path's requests kept apart too: a waiter checks a count on every request, which must not cost a
  // pass over everything received so far (a benchmark's receiver takes tens of thousands).
  const byPath = new Map<string, ReceivedCallback[]>();
  const scripts = new Map<string, { answers: Answer[]; perWebhookId: boolean }>();
  const served = new Map<string, number>();
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const request: ReceivedCallback = {
        path,
        method: req.method ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(request);
      const mine = byPath.get(path);
      if (mine) mine.push(request);
      else byPath.set(path, [request]);
      const script = scripts.get(path);
      const counter = script?.perWebhookId ? `${path} ${String(req.headers["webhook-id"])}` : path;
      const n = served.get(counter) ?? 0;
      served.set(counter, n + 1);
      for (const wake of [...waiters]) wake();
      const answers = script?.answers ?? [];
      const answer: Answer = answers[Math.min(n, answers.length - 1)] ?? { status: 204 };
      if (answer.hold) return;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 204, answer.headers ?? {});
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  };

  const server: Server = opts.tls
    ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handle)
    : createServer(handle);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const requests = (path?: string) => [...(path === undefined ? received : (byPath.get(path) ?? []))];

  return {
    baseUrl: opts.tls ? `https://${opts.tls.host}:${port}` : `http://127.0.0.1:${port}`,
    script: (path, answers, opts) => void scripts.set(path, { answers, perWebhookId: opts?.perWebhookId ?? false }),
    requests,
    waitFor: (path, count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if ((byPath.get(path)?.length ?? 0) >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(requests(path));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`receiver: ${requests(path).length} of ${count} requests to ${path} within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Standard Webhooks verification written from the specification's text, independently of lib/callbacks:
 * key = base64-decode(secret without "whsec_"); expected = base64(HMAC-SHA256(key, id + "." + timestamp +
 * "." + body)); the header is a space-separated list of "v1,<signature>"; any match is enough.
 */
export function verifyStandardWebhook(request: ReceivedCallback, secret: string): boolean {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const header = request.headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof header !== "string") return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest();
  return header.split(" ").some((entry) => {
    const comma = entry.indexOf(",");
    if (entry.slice(0, comma) !== "v1") return false;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
