// One autocannon run, in its own process (pinned apart from the server by the caller), against
// POST /v1/transfer with a distinct valid transfer in every request. Prints the result as one JSON line.
// A template with a `__LAST__` placeholder also gets a patient of its own in every request (a letters-only
// last name from the request's number), so that no transfer trips duplicate therapy: the immediate-confirmation
// case (intake-immediate.ts), where each one must qualify.
import autocannon from "autocannon";
import { readLoadArgs } from "./load-args";

const args = readLoadArgs();
const ownPatient = args.template.includes("__LAST__");
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
    ...(args.rate ? { overallRate: args.rate } : {}),
    requests: [
      {
        method: "POST",
        path: "/v1/transfer",
        headers: { "content-type": "application/json", authorization: `senderKey ${args.apiKey}` },
        setupRequest: (req) => {
          n++;
          const body = args.template
            .replace("__REQUEST_ID__", `${args.prefix}-${n}`)
            .replace("__RX__", `${args.prefix}${n}`);
          return { ...req, body: ownPatient ? body.replace("__LAST__", `Bench${tag}${letters(n)}`) : body };
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
