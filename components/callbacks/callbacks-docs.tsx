// The "Callbacks" section of the API documentation (/docs): what a sending pharmacy receives once a
// pharmacist has decided, how to verify it, and when it is retried. The schedule is rendered from the
// schedule the worker uses, so the page cannot drift from the code.
import { MAX_RETRY_AFTER_MS, RETRY_DELAYS_MS, RETRY_WINDOW_MS } from "@/lib/callbacks/retry-schedule";
import { SENDER_WINDOW_MS } from "@/lib/interface";
import { TIMESTAMP_TOLERANCE_SECONDS } from "@/lib/callbacks/verify-webhook";
import { VERIFY_EXAMPLE } from "@/lib/callbacks/verify-example";

const SAMPLE_HEADERS = `POST /rx-callbacks HTTP/1.1
Content-Type: application/json
webhook-id: msg_2KWPBgLlAfxdpx2AI54pPJ85f4W
webhook-timestamp: 1764590400
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
Authorization: Bearer <your own credential, if you gave the pharmacy one>`;

function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return m ? `${h} h ${m} min` : `${h} h`;
}

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function scheduleRows(): { attempt: string; after: string; at: string }[] {
  const rows = [{ attempt: "1", after: "at once (within a second of the decision)", at: "0:00:00" }];
  let at = 0;
  RETRY_DELAYS_MS.forEach((delay, i) => {
    at += delay;
    rows.push({ attempt: String(i + 2), after: duration(delay), at: clock(at) });
  });
  const last = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 0;
  rows.push({
    attempt: "then",
    after: `every ${duration(last)}`,
    at: `until ${duration(RETRY_WINDOW_MS)} after the first attempt`,
  });
  return rows;
}

function Code({ children }: { children: string }) {
  return (
    <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
      {children}
    </pre>
  );
}

const mono = "font-mono";

export function CallbacksDocs() {
  let at = 0;
  let insideWindow = 1;
  for (const delay of RETRY_DELAYS_MS) {
    at += delay;
    if (at < SENDER_WINDOW_MS) insideWindow++;
  }
  return (
    <>
      <h2 id="callbacks" className="mt-10 scroll-mt-4 border-b border-slate-300 pb-1 text-lg font-semibold">
        Callbacks
      </h2>
      <p className="mt-2">
        When a pharmacist decides a transfer we answered <strong>RECEIVED</strong>, we{" "}
        <code className={mono}>POST</code> the outcome to your registered callback URL: a TransferResponse with the{" "}
        <strong>same requestID</strong> (yours, echoed) and <strong>the same referenceID</strong> as the RECEIVED
        answer, a new responseID, and either <strong>CONFIRMED</strong> with the prescription as you sent it (plus{" "}
        <code className={mono}>metadata.localRxNumber</code>, our Rx number) or <strong>ERROR</strong> with{" "}
        <code className={mono}>error.type</code> and <code className={mono}>error.description</code>. The callback is
        usually with you within a second of the decision. If your endpoint was down, the outcome can also be read with{" "}
        <code className={mono}>GET /v1/transfer/&#123;referenceID&#125;</code>.
      </p>

      <h3 className="mt-4 font-semibold">Headers</h3>
      <p className="mt-1">
        Callbacks are signed per{" "}
        <a className="text-blue-700 underline underline-offset-2" href="https://www.standardwebhooks.com/">
          Standard Webhooks
        </a>
        :
      </p>
      <Code>{SAMPLE_HEADERS}</Code>
      <table className="mt-3 w-full border-collapse text-left">
        <tbody>
          {[
            ["Content-Type", "application/json; the body is the TransferResponse."],
            [
              "webhook-id",
              "msg_…: the same on every attempt of one callback, redeliveries included. Your idempotency key.",
            ],
            ["webhook-timestamp", "Unix seconds when this attempt was signed (new on every attempt)."],
            [
              "webhook-signature",
              'v1,<base64 HMAC-SHA256>, keyed with your whsec_ secret, of "<webhook-id>.<webhook-timestamp>.<raw body>". While your secret is being rotated there are two entries, space-separated: accept either.',
            ],
            [
              "your header",
              "The credential you asked us to send (for example Authorization), exactly as configured; stored encrypted on our side.",
            ],
          ].map(([name, meaning]) => (
            <tr key={name} className="border-b border-slate-200 align-top">
              <th scope="row" className="py-1 pr-4 text-left font-mono font-normal whitespace-nowrap">
                {name}
              </th>
              <td className="py-1">{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3 className="mt-4 font-semibold">Verifying the signature</h3>
      <ol className="mt-1 list-decimal space-y-1 pl-6">
        <li>
          Take the secret after <code className={mono}>whsec_</code> and base64-decode it: that is the HMAC key.
        </li>
        <li>
          Compute HMAC-SHA256 of{" "}
          <code className={mono}>webhook-id + &quot;.&quot; + webhook-timestamp + &quot;.&quot; + body</code> over the{" "}
          <strong>raw body as received</strong> (before any JSON parsing), and base64-encode it.
        </li>
        <li>
          Compare it in constant time with each <code className={mono}>v1,</code> entry of webhook-signature; one match
          is enough.
        </li>
        <li>Refuse a webhook-timestamp more than {TIMESTAMP_TOLERANCE_SECONDS / 60} minutes away from your clock.</li>
      </ol>
      <Code>{VERIFY_EXAMPLE}</Code>

      <h3 className="mt-4 font-semibold">Answering, retries and idempotency</h3>
      <ul className="mt-1 list-disc space-y-1 pl-6">
        <li>
          Any <strong>2xx</strong> within <strong>15 seconds</strong> acknowledges the callback. Answer first, process
          afterwards.
        </li>
        <li>
          A body whose <code>metadata.responseType</code> is <code>RX_CALLBACK_ERROR</code> (with any status, 200
          included) refuses it: the callback is marked refused with your <code>error.type</code> and{" "}
          <code>error.description</code>, is not retried, and our admins are alerted to fix the cause and redeliver it.{" "}
          <code>RX_CALLBACK_SUCCESS</code>, or no such field, in a 2xx acknowledges it.
        </li>
        <li>
          Anything else is retried: 3xx (redirects are <strong>not followed</strong>: register the final URL), 4xx, 5xx,
          a timeout or a connection error.
        </li>
        <li>
          <code className={mono}>Retry-After</code> (seconds or an HTTP date) on any answer is honoured: the next
          attempt waits at least that long (at most {duration(MAX_RETRY_AFTER_MS)}).
        </li>
        <li>
          <strong>410 Gone</strong> stops the retries of that callback and flags your endpoint to the pharmacy; ask them
          to update your callback URL.
        </li>
        <li>
          <strong>Deduplicate by webhook-id.</strong> A callback can arrive more than once (a retry after an answer we
          did not receive, or a pharmacist pressing &quot;Redeliver&quot;); answer 2xx to a repeat and ignore it.
        </li>
        <li>
          <strong>Expect several at once, in any order.</strong> Callbacks of different transfers are independent: a
          backlog (after your endpoint was down) is sent several requests at a time over kept-alive connections, each
          signed on its own.
        </li>
        <li>We only connect to public internet addresses; the callback URL should use https.</li>
        <li>
          Before your first transfer the pharmacy can send you a test callback: signed like any other, with{" "}
          <code className={mono}>metadata.test: true</code> and the referenceID <code className={mono}>trf_test</code>.
          Answer it with a 2xx and do nothing else.
        </li>
      </ul>

      <h3 className="mt-4 font-semibold">Retry schedule</h3>
      <p className="mt-1">
        Front-loaded for your {duration(SENDER_WINDOW_MS)} window ({insideWindow} attempts inside it), then every{" "}
        {duration(RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 0)} for at least {duration(RETRY_WINDOW_MS)}; each
        delay varies by ±20 %. A callback still unacknowledged after {duration(RETRY_WINDOW_MS)} is marked failed and
        shown to the pharmacy, who can redeliver it.
      </p>
      <table aria-label="Callback retry schedule" className="mt-2 w-full border-collapse text-left">
        <thead>
          <tr className="border-b border-slate-300 text-xs uppercase tracking-wide text-slate-500">
            <th scope="col" className="py-1 pr-4">
              Attempt
            </th>
            <th scope="col" className="py-1 pr-4">
              After the previous one
            </th>
            <th scope="col" className="py-1">
              Time since the decision (about)
            </th>
          </tr>
        </thead>
        <tbody>
          {scheduleRows().map((row) => (
            <tr key={row.attempt} className="border-b border-slate-200">
              <td className="py-1 pr-4 font-mono">{row.attempt}</td>
              <td className="py-1 pr-4">{row.after}</td>
              <td className="py-1 font-mono">{row.at}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
