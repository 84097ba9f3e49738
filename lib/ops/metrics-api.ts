// GET /metrics: the Prometheus text exposition, never on the public port without METRICS_TOKEN (Bearer,
// compared in constant time). With METRICS_PORT the launcher also serves it, token-free, on 127.0.0.1.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { ApiAnswer } from "@/lib/http/api-exchange";
import { env } from "@/lib/env";
import { metrics } from "@/lib/ops/metrics";
import { listen } from "@/lib/http/listen";

const digest = (s: string) => createHash("sha256").update(s).digest();

function problem(status: number, detail: string, headers: Record<string, string> = {}): ApiAnswer {
  return {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
    body: `${detail}\n`,
  };
}

export function isMetricsPath(method: string | undefined, url: string | undefined): boolean {
  if (!url) return false;
  const query = url.indexOf("?");
  return (query === -1 ? url : url.slice(0, query)) === "/metrics" && (method === "GET" || method === "HEAD");
}

/** The token check, then the exposition. Without METRICS_TOKEN the public port has no /metrics: 404. */
export async function handleMetrics(
  authorization: string | null | undefined,
  opts: { trusted?: boolean } = {},
): Promise<ApiAnswer> {
  if (!opts.trusted) {
    const token = env().METRICS_TOKEN;
    if (!token) return problem(404, "not found");
    const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match || !timingSafeEqual(digest(match[1]!), digest(token))) {
      return problem(401, "a bearer token (METRICS_TOKEN) is required", {
        "www-authenticate": 'Bearer realm="metrics"',
      });
    }
  }
  const registry = metrics().registry;
  return {
    status: 200,
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
    body: await registry.metrics(),
  };
}

/** METRICS_PORT: a loopback-only listener that answers GET /metrics and nothing else. */
export async function startMetricsListener(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (a: ApiAnswer) => {
      res.writeHead(a.status, { ...a.headers, "content-length": String(Buffer.byteLength(a.body)) });
      res.end(a.body);
    };
    if (!isMetricsPath(req.method, req.url)) return send(problem(404, "not found"));
    handleMetrics(null, { trusted: true }).then(send, () => res.destroy());
  });
  await listen(server, port, "127.0.0.1");
  return server;
}
