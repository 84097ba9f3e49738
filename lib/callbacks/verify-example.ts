// The signature check the docs page shows senders (a complete Node receiver, no dependencies). Kept here,
// not in the page, so that a unit test runs the very text we publish.
import { TIMESTAMP_TOLERANCE_SECONDS } from "@/lib/callbacks/verify-webhook";

export const VERIFY_EXAMPLE = `// Node.js 18+, no dependencies. WEBHOOK_SECRET is the whsec_… secret the pharmacy gave you.
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

const key = Buffer.from(process.env.WEBHOOK_SECRET.slice("whsec_".length), "base64");

function isAuthentic(headers, rawBody) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  // Refuse replays: the timestamp is set on every attempt.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > ${TIMESTAMP_TOLERANCE_SECONDS}) return false;
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  // One or more "v1,<base64>" entries, space-separated (two while a secret is being rotated).
  return signatures.split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    const given = Buffer.from(signature, "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const seen = new Set(); // use your database: webhook-id is the idempotency key

http.createServer((req, res) => {
  let rawBody = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (rawBody += chunk));
  req.on("end", () => {
    if (!isAuthentic(req.headers, rawBody)) return res.writeHead(401).end();
    const id = req.headers["webhook-id"];
    if (!seen.has(id)) {
      seen.add(id);
      const outcome = JSON.parse(rawBody); // CONFIRMED or ERROR, same requestID and referenceID
      // … record outcome.metadata.referenceID as transferred or failed, after answering
    }
    res.writeHead(204).end(); // any 2xx, within 15 seconds
  });
}).listen(8080);`;
