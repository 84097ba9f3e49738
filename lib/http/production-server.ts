// `npm start`'s HTTP server. Next's request handler answers everything except POST /v1/transfer, the
// partner API's hot path, which goes straight to its handler: Next's per-request pipeline (routing, Web
// Request/Response conversion, async context) costs several times the handler's own work
// (docs/performance.md, bench/HISTORY.md). The route in app/v1/transfer serves the same handler
// under `npm run dev` and `next start`. A path that does not decode is answered here too, before Next.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { env } from "@/lib/env";
import type { ApiAnswer } from "@/lib/http/api-exchange";
import { applyClientAddress } from "@/lib/http/client-address";
import { audienceOf, isMalformedPath, malformedPathAnswer } from "@/lib/http/malformed-path";
import { fromNodeRequest, writeNodeAnswer } from "@/lib/http/node-exchange";
import { API_RESPONSE_HEADERS, HSTS } from "@/lib/http/security-headers";
import { handleMalformedPath, handlePostTransfer } from "@/lib/http/transfer-api";
import { errorFields, log } from "@/lib/log";
import { handleHealthz, handleReadyz, probeFor } from "@/lib/ops/health-api";
import { handleMetrics, isMetricsPath } from "@/lib/ops/metrics-api";
import { listen } from "@/lib/http/listen";

export type ProductionServer = { close(): Promise<void> };

function isIntake(req: IncomingMessage): boolean {
  if (req.method !== "POST" || !req.url) return false;
  const query = req.url.indexOf("?");
  return (query === -1 ? req.url : req.url.slice(0, query)) === "/v1/transfer";
}

/** Over TLS here, or per X-Forwarded-Proto, which is still there only when a trusted proxy sent it. */
function arrivedOverHttps(req: IncomingMessage): boolean {
  if ("encrypted" in req.socket && req.socket.encrypted) return true;
  const proto = req.headers["x-forwarded-proto"];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase() === "https";
}

const API_HTTPS_HEADERS: Readonly<Record<string, string>> = {
  ...API_RESPONSE_HEADERS,
  "Strict-Transport-Security": HSTS,
};

/** Writes an answer made without Next; its handlers answer their own failures, so a rejection is only a socket that went away. */
function reply(req: IncomingMessage, res: ServerResponse, answer: Promise<ApiAnswer>): void {
  const headers = arrivedOverHttps(req) ? API_HTTPS_HEADERS : API_RESPONSE_HEADERS;
  answer.then(
    (a) => writeNodeAnswer(res, a, headers),
    () => res.destroy(),
  );
}

export async function startProductionServer(opts: { dir: string; port: number }): Promise<ProductionServer> {
  const app = next({ dev: false, dir: opts.dir, port: opts.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const trusted = env().TRUSTED_PROXIES;
  const server = createServer((req, res) => {
    // First: who the client is, from the socket and TRUSTED_PROXIES; a client's forwarding headers go.
    applyClientAddress(req, trusted);
    if (isIntake(req)) {
      reply(req, res, handlePostTransfer(fromNodeRequest(req)));
      return;
    }
    // Operations (lib/ops): probes and metrics skip Next too, so they answer fast and while Next is busy.
    const probe = probeFor(req.method, req.url);
    if (probe) {
      reply(req, res, probe === "healthz" ? Promise.resolve(handleHealthz()) : handleReadyz());
      return;
    }
    if (isMetricsPath(req.method, req.url)) {
      reply(req, res, handleMetrics(req.headers.authorization));
      return;
    }
    // HSTS on every answer Next writes too (pages, /api, /v1, /oauth), not only those proxy.ts sees.
    if (arrivedOverHttps(req)) res.setHeader("Strict-Transport-Security", HSTS);
    // Before Next's router, which answers a path it cannot decode with a bare 500; here for every path,
    // since /v1 and /oauth never reach proxy.ts.
    const url = req.url ?? "/";
    if (isMalformedPath(url)) {
      const audience = audienceOf(url);
      reply(
        req,
        res,
        audience === "transfer-api"
          ? handleMalformedPath(fromNodeRequest(req))
          : Promise.resolve(malformedPathAnswer(audience)),
      );
      return;
    }
    handle(req, res).catch((err: unknown) => {
      // Next answers its own errors; this is a failure inside Next's handler itself.
      log("error", "request handler failed", { url: req.url, ...errorFields(err) });
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("internal error");
      } else {
        res.destroy();
      }
    });
  });
  await listen(server, opts.port);

  return {
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      await closed;
      await app.close();
    },
  };
}
