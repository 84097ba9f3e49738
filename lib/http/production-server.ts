// `npm start`'s HTTP server. Next's request handler answers everything except POST /v1/transfer, the
// partner API's hot path, which goes straight to its handler: Next's per-request pipeline (routing, Web
// Request/Response conversion, async context) costs several times the handler's own work
// (shared/notes/performance.md, bench/README.md). The route in app/v1/transfer serves the same handler
// under `npm run dev` and `next start`. A path that does not decode is answered here too, before Next.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import type { ApiAnswer } from "@/lib/http/api-exchange";
import { audienceOf, isMalformedPath, malformedPathAnswer } from "@/lib/http/malformed-path";
import { fromNodeRequest, writeNodeAnswer } from "@/lib/http/node-exchange";
import { API_RESPONSE_HEADERS } from "@/lib/http/security-headers";
import { handleMalformedPath, handlePostTransfer } from "@/lib/http/transfer-api";
import { errorFields, log } from "@/lib/log";
import { handleHealthz, handleReadyz, probeFor } from "@/lib/ops/health-api";
import { handleMetrics, isMetricsPath } from "@/lib/ops/metrics-api";

export type ProductionServer = { close(): Promise<void> };

function isIntake(req: IncomingMessage): boolean {
  if (req.method !== "POST" || !req.url) return false;
  const query = req.url.indexOf("?");
  return (query === -1 ? req.url : req.url.slice(0, query)) === "/v1/transfer";
}

/** Writes an answer made without Next; its handlers answer their own failures, so a rejection is only a socket that went away. */
function reply(res: ServerResponse, answer: Promise<ApiAnswer>): void {
  answer.then(
    (a) => writeNodeAnswer(res, a, API_RESPONSE_HEADERS),
    () => res.destroy(),
  );
}

export async function startProductionServer(opts: { dir: string; port: number }): Promise<ProductionServer> {
  const app = next({ dev: false, dir: opts.dir, port: opts.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = createServer((req, res) => {
    if (isIntake(req)) {
      reply(res, handlePostTransfer(fromNodeRequest(req)));
      return;
    }
    // Operations (lib/ops): probes and metrics skip Next too, so they answer fast and while Next is busy.
    const probe = probeFor(req.method, req.url);
    if (probe) {
      reply(res, probe === "healthz" ? Promise.resolve(handleHealthz()) : handleReadyz());
      return;
    }
    if (isMetricsPath(req.method, req.url)) {
      reply(res, handleMetrics(req.headers.authorization));
      return;
    }
    // Before Next's router, which answers a path it cannot decode with a bare 500; here for every path,
    // since /v1 and /oauth never reach proxy.ts.
    const url = req.url ?? "/";
    if (isMalformedPath(url)) {
      const audience = audienceOf(url);
      reply(res, audience === "transfer-api" ? handleMalformedPath(fromNodeRequest(req)) : Promise.resolve(malformedPathAnswer(audience)));
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, () => resolve());
  });

  return {
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      await closed;
      await app.close();
    },
  };
}
