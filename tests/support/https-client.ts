// The test's own HTTPS client for the production rehearsal: requests go to host names that only the test
// knows (resolved to 127.0.0.1 here), over TLS checked against the test's CA, through node:https so that
// nothing else (a proxy setting, the system's trust store) takes part.
import https from "node:https";
import type { LookupFunction } from "node:net";

export type HttpsAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };
export type HttpsRequest = { method?: string; headers?: Record<string, string>; body?: string };
export type HttpsClient = (url: string, init?: HttpsRequest) => Promise<HttpsAnswer>;

export function makeHttpsClient(opts: { ca: string; hosts: string[] }): HttpsClient {
  const names = new Set(opts.hosts.map((h) => h.toLowerCase()));
  const lookup: LookupFunction = (hostname, options, callback) => {
    if (!names.has(hostname.toLowerCase())) {
      callback(new Error(`${hostname}: not a host of the rehearsal`), "", 4);
      return;
    }
    if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  };
  const agent = new https.Agent({ ca: opts.ca, lookup, keepAlive: false });
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const req = https.request(url, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.setTimeout(30_000, () => req.destroy(new Error(`${init.method ?? "GET"} ${url}: no answer in 30 s`)));
      req.end(init.body);
    });
}
