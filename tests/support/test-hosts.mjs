// The company's DNS, for the production rehearsal's processes: the host names listed in RX_TEST_HOSTS
// (comma-separated) resolve to 127.0.0.1, every other name as usual. Loaded with
// NODE_OPTIONS="--import <this file>" into `npm start`, `npm run worker` and the CLI, so that they reach the
// identity provider and the callback receiver by the names their certificates hold, as they would in
// production. Plain JavaScript: it runs before tsx's loader is registered.
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";

const NAMES = new Set(
  (process.env.RX_TEST_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
);
const LOOPBACK = { address: "127.0.0.1", family: 4 };
const isMapped = (hostname) => typeof hostname === "string" && NAMES.has(hostname.toLowerCase());

const systemLookup = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  if (typeof options === "function") [callback, options] = [options, {}];
  if (!isMapped(hostname)) return systemLookup.call(this, hostname, options, callback);
  const all = typeof options === "object" && options !== null && options.all;
  if (all) process.nextTick(callback, null, [LOOPBACK]);
  else process.nextTick(callback, null, LOOPBACK.address, LOOPBACK.family);
};

const systemPromiseLookup = dns.promises.lookup;
dns.promises.lookup = async function lookup(hostname, options) {
  if (!isMapped(hostname)) return systemPromiseLookup.call(this, hostname, options);
  const all = typeof options === "object" && options !== null && options.all;
  return all ? [LOOPBACK] : LOOPBACK;
};

// `import { lookup } from "node:dns/promises"` in modules loaded later sees the replacements too.
syncBuiltinESMExports();
