// An evenly paced intake load, in its own process: requests start at `rate` per second spread evenly over
// each second (open loop), on up to `connections` keep-alive sockets. autocannon's `overallRate` instead lets
// every connection send its share back to back at the start of each second, so its "paced" latency is the
// latency of a 50-connection burst. Latency here counts from each request's scheduled start, so time spent
// waiting for a free socket (the server falling behind) is included. Prints one JSON line (LoadResult).
import http from "node:http";
import { readLoadArgs } from "./load-args";

const args = readLoadArgs();
const rate = args.rate!;
// FIFO spreads requests over all sockets, so none sits idle past the server's keep-alive timeout.
const agent = new http.Agent({ keepAlive: true, maxSockets: args.connections, scheduling: "fifo" });
const target = new URL("/v1/transfer", args.url);

const latencies: number[] = [];
let non2xx = 0;
let errors = 0;
let sent = 0;
let settled = 0;

function send(n: number, scheduledAt: number, retried = false): void {
  const body = args.template.replace("__REQUEST_ID__", `${args.prefix}-${n}`).replace("__RX__", `${args.prefix}${n}`);
  const req = http.request(target, {
    method: "POST",
    agent,
    headers: {
      "content-type": "application/json",
      authorization: `senderKey ${args.apiKey}`,
      "content-length": Buffer.byteLength(body),
    },
  });
  const done = (ok: boolean) => {
    settled++;
    if (ok) latencies.push(performance.now() - scheduledAt);
    else errors++;
  };
  req.on("response", (res) => {
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) non2xx++;
    res.resume();
    res.on("end", () => done(true));
  });
  req.on("error", () => {
    // A kept-alive socket the server closed as this request went out: sent again once, as Node's docs advise;
    // its latency still counts from the first scheduled start. Any other failure is an error.
    if (req.reusedSocket && !retried) send(n, scheduledAt, true);
    else done(false);
  });
  req.end(body);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const started = performance.now();
const total = Math.round(rate * args.seconds);
const tick = setInterval(() => {
  // Every request whose start time has come: the i-th starts at started + i / rate seconds.
  const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
  while (sent < due) {
    send(sent + 1, started + (sent * 1000) / rate);
    sent++;
  }
  if (sent >= total) clearInterval(tick);
}, 1);

const finish = setInterval(() => {
  // All answered, or 30 s past the end: what is still open counts as an error.
  if (settled < total && performance.now() - started < (args.seconds + 30) * 1000) return;
  clearInterval(finish);
  errors += total - settled;
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      requestsPerSecond: Math.round(total / elapsed),
      total,
      non2xx,
      errors,
      timeouts: 0,
      p50: Math.round(percentile(sorted, 50) * 10) / 10,
      p99: Math.round(percentile(sorted, 99) * 10) / 10,
    })}\n`,
  );
  agent.destroy();
}, 50);
