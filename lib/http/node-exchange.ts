// ApiRequest / ApiAnswer over Node's own http objects, for the production server's direct routes.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiAnswer, ApiRequest } from "@/lib/http/api-exchange";
import { decodeBody, type BodyResult } from "@/lib/http/read-body";

/** Reads up to `limit` bytes; past it, stops buffering and lets the rest drain. */
function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, reason: "too_large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflowed = false;
    req.on("data", (chunk: Buffer) => {
      if (overflowed) return;
      size += chunk.length;
      if (size > limit) {
        overflowed = true;
        chunks.length = 0;
        resolve({ ok: false, reason: "too_large" });
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(decodeBody(chunks)));
    // A client that disconnects mid-upload is not a server failure (nor, despite ECONNRESET, a database one).
    req.once("error", () => resolve({ ok: false, reason: "aborted" }));
  });
}

export function fromNodeRequest(req: IncomingMessage): ApiRequest {
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    headers: {
      get(name: string) {
        const value = req.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    readBody: (limit) => readNodeBody(req, limit),
  };
}

export function writeNodeAnswer(res: ServerResponse, answer: ApiAnswer, baseHeaders: Record<string, string>): void {
  res.writeHead(answer.status, {
    ...baseHeaders,
    ...answer.headers,
    "content-length": String(Buffer.byteLength(answer.body)),
  });
  res.end(answer.body);
}
