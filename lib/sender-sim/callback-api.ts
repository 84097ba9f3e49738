// The sender's "Prescription Transfer Callback API", played on 127.0.0.1 for the simulator
// (simulate-sender.ts): it takes our callbacks and answers as the sender's guides describe,
// RX_CALLBACK_SUCCESS when it processed one, or RX_CALLBACK_ERROR (MISSING_INFO, "could not map callback -
// requestID is missing") for a chosen share of them, with HTTP 200: the guides do not say which status goes
// with the error, and 200 is the case a generic webhook client gets wrong. A person "fixing the cause" is
// setRefuseShare(0). It processes a requestID's decision once: a second accepted callback of the same
// requestID is counted as a duplicate.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedCallback = {
  requestID: string;
  /** The callback's metadata.responseType (CONFIRMED or ERROR). */
  responseType: string;
  webhookId: string | null;
  answered: "RX_CALLBACK_SUCCESS" | "RX_CALLBACK_ERROR";
  at: number;
};

export type CallbackApi = {
  url: string;
  /** Every callback received, in order. */
  received: ReceivedCallback[];
  /** Share (0..1) of the callbacks from now on answered RX_CALLBACK_ERROR. */
  setRefuseShare(share: number): void;
  close(): Promise<void>;
};

export type CallbackApiOptions = { port?: number; refuseShare: number };

const MAX_BODY = 1024 * 1024;

export async function startCallbackApi(opts: CallbackApiOptions): Promise<CallbackApi> {
  const received: ReceivedCallback[] = [];
  let share = opts.refuseShare;
  // Refuses exactly `share` of the callbacks counted since the share was set, spread evenly.
  let counted = 0;
  let refused = 0;
  const shouldRefuse = () => {
    counted += 1;
    if (refused < Math.floor(counted * share + 1e-9)) {
      refused += 1;
      return true;
    }
    return false;
  };
  const answer = (res: ServerResponse, status: number, body: object) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", () => {
      let body: { requestID?: unknown; metadata?: { responseType?: unknown; referenceID?: unknown } } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        // An unreadable body is refused below like a missing requestID.
      }
      const requestID = typeof body.requestID === "string" ? body.requestID : "";
      const metadata = {
        referenceID: typeof body.metadata?.referenceID === "string" ? body.metadata.referenceID : "",
        responseID: `cbr_${received.length + 1}`,
        responseTimestamp: new Date().toISOString(),
      };
      const webhookId = typeof req.headers["webhook-id"] === "string" ? req.headers["webhook-id"] : null;
      const responseType = typeof body.metadata?.responseType === "string" ? body.metadata.responseType : "";
      const refuse = requestID === "" || shouldRefuse();
      received.push({
        requestID,
        responseType,
        webhookId,
        answered: refuse ? "RX_CALLBACK_ERROR" : "RX_CALLBACK_SUCCESS",
        at: Date.now(),
      });
      if (refuse) {
        return answer(res, 200, {
          requestID,
          metadata: { ...metadata, responseType: "RX_CALLBACK_ERROR" },
          error: { type: "MISSING_INFO", description: "could not map callback - requestID is missing" },
        });
      }
      answer(res, 200, { requestID, metadata: { ...metadata, responseType: "RX_CALLBACK_SUCCESS" } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    received,
    setRefuseShare(next) {
      share = next;
      counted = 0;
      refused = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
