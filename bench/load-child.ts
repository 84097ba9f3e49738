// One autocannon run, in its own process (pinned apart from the server by the caller), against
// POST /v1/transfer with a distinct valid transfer in every request. Prints the result as one JSON line.
// A template with a `__LAST__` placeholder also gets a patient of its own in every request (a letters-only
// last name from the request's number), so that no transfer trips duplicate therapy: the immediate-confirmation
// case (intake-immediate.ts), where each one must qualify.
import autocannon from "autocannon";
import { letters } from "./letters";
import { readLoadArgs } from "./load-args";

const args = readLoadArgs();
const ownPatient = args.template.includes("__LAST__");
// The run's prefix spelled in letters (its digits too: the last name is letters only), so that no two runs
// share a patient: a prefix of a few letters and the rest digits once gave two runs the same names.
const tag = args.prefix
  .toLowerCase()
  .replace(/[^a-z0-9]/g, "")
  .replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!);

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
