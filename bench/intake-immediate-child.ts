// The immediate-confirmation intake case's load child: load-child.ts with a patient of their own in every
// request (a letters-only last name from the request's number), so that no transfer trips duplicate therapy
// and each one qualifies where the store's policy is on. Prints the result as one JSON line.
import autocannon from "autocannon";
import { readLoadArgs } from "./load-args";

const args = readLoadArgs();
const tag = args.prefix.replace(/[^a-z]/g, "").slice(0, 6) || "bench";

/** n as letters: 0 -> a, 25 -> z, 26 -> ba … */
function letters(n: number): string {
  let s = "";
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
}

let n = 0;
const instance = autocannon(
  {
    url: args.url,
    connections: args.connections,
    duration: args.seconds,
    requests: [
      {
        method: "POST",
        path: "/v1/transfer",
        headers: { "content-type": "application/json", authorization: `senderKey ${args.apiKey}` },
        setupRequest: (req) => {
          n++;
          const body = args.template
            .replace("__REQUEST_ID__", `${args.prefix}-${n}`)
            .replace("__RX__", `${args.prefix}${n}`)
            .replace("__LAST__", `Bench${tag}${letters(n)}`);
          return { ...req, body };
        },
      },
    ],
  },
  (err, result) => {
    if (err) {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    }
    process.stdout.write(
      `${JSON.stringify({
        requestsPerSecond: result.requests.average,
        total: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        p50: result.latency.p50,
        p99: result.latency.p99,
      })}\n`,
    );
  },
);
process.on("SIGTERM", () => instance.stop());
