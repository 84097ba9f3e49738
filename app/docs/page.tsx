// The API documentation for sending pharmacies' engineers, rendered on the server from the same OpenAPI
// document as /v1/openapi.json: no CDN, readable offline and without scripts (which only add the Copy buttons).
import type { Metadata } from "next";
import { CallbacksDocs } from "@/components/callbacks/callbacks-docs";
import { DispensingDocs } from "@/components/docs/dispensing-docs";
import { CopyButton } from "@/components/docs/copy-button";
import { SchemaFields, type OpenApiSchemas } from "@/components/docs/schema-fields";
import { MAX_BODY_BYTES } from "@/lib/http/read-body";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { exampleTransferRequest } from "@/lib/demo/example-request";
import { ERROR_TYPE_MEANINGS, ERROR_TYPES } from "@/lib/interface";

export const metadata: Metadata = { title: "API documentation" };
export const dynamic = "force-dynamic";

type Operation = { summary?: string; description?: string; responses?: Record<string, { description?: string }> };
type Doc = {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: OpenApiSchemas };
};

const STATUS_CODES: [string, string][] = [
  [
    "200",
    "RECEIVED: the transfer is stored and awaits a pharmacist; the CONFIRMED or ERROR outcome follows by callback (and by GET /v1/transfer/{referenceID}).",
  ],
  [
    "400",
    "ERROR caused by the request: MISSING_INFO, SPEC_MISMATCH, INVALID_INFO, RX_EXPIRED or DUPLICATE_REQUEST. Strings must be valid Unicode without NUL (SPEC_MISMATCH otherwise).",
  ],
  ["401", "Missing or bad credentials (with WWW-Authenticate). Type OTHER."],
  ["404", "No such transfer for these credentials, or no such /v1 path. Type OTHER."],
  ["405", "Another method than the endpoint allows (with Allow). Type OTHER."],
  ["413", `Body larger than ${MAX_BODY_BYTES} bytes (1 MB). Type OTHER.`],
  ["415", "Content-Type is not application/json. Type SPEC_MISMATCH."],
  ["500", "An unexpected failure; nothing was stored. Safe to retry with the same requestID. Type OTHER."],
  ["503", "The database is unreachable for a moment (with Retry-After). Safe to retry. Type OTHER."],
];

function Code({ children }: { children: string }) {
  return (
    <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
      {children}
    </pre>
  );
}

function H2({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="mt-10 scroll-mt-4 border-b border-slate-300 pb-1 text-lg font-semibold">
      {children}
    </h2>
  );
}

export default function DocsPage() {
  const doc = buildOpenApiDocument() as unknown as Doc;
  const example = JSON.stringify(exampleTransferRequest(new Date()), null, 2);
  const curl = `curl -sS -X POST "$BASE_URL/v1/transfer" \\
  -H "Authorization: senderKey $API_KEY" \\
  -H "Content-Type: application/json" \\
  --data @transfer.json`;
  const schemaNames = Object.keys(doc.components.schemas).filter((n) => doc.components.schemas[n]?.properties);
  const toc = [
    ["start", "Getting started"],
    ["auth", "Authentication"],
    ["responses", "Responses and status codes"],
    ["errors", "Error types"],
    ["retries", "Retries and duplicates"],
    ["review", "Controlled substances"],
    ["callbacks", "Callbacks"],
    ["dispensing", "Connecting your dispensing system"],
    ["endpoints", "Endpoints"],
    ["schemas", "Data shapes"],
  ];
  return (
    <div className="mx-auto flex max-w-6xl gap-8 px-6 py-8">
      <nav aria-label="Contents" className="sticky top-8 hidden h-fit w-48 shrink-0 lg:block">
        <ul className="space-y-1">
          {toc.map(([id, label]) => (
            <li key={id}>
              <a className="text-blue-700 hover:underline" href={`#${id}`}>
                {label}
              </a>
            </li>
          ))}
        </ul>
        <p className="mt-4">
          <a className="text-blue-700 hover:underline" href="/v1/openapi.json">
            openapi.json
          </a>
        </p>
      </nav>
      <main className="min-w-0 flex-1">
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        <p className="mt-1 text-slate-600">Interface version {doc.info.version}. All bodies are JSON.</p>

        <H2 id="start">Getting started</H2>
        <p className="mt-2">
          Send one prescription per request to <code className="font-mono">POST /v1/transfer</code>. A valid request is
          stored at once and answered <strong>RECEIVED</strong> with a <code className="font-mono">referenceID</code>; a
          pharmacist reviews it, and the outcome (CONFIRMED with the prescription, or ERROR) is sent to your callback
          URL and can be read at any time with{" "}
          <code className="font-mono">GET /v1/transfer/&#123;referenceID&#125;</code>.
        </p>
        <Code>{curl}</Code>
        <CopyButton text={curl} label="Copy the curl command" />
        <p className="mt-2">
          <code className="font-mono">transfer.json</code> is a complete, valid request, dated today (a prescription
          written 40 days ago, expiring in a year); it is also <code className="font-mono">examples/transfer.json</code>{" "}
          in the service&apos;s repository. Save it, set <code className="font-mono">BASE_URL</code> and{" "}
          <code className="font-mono">API_KEY</code>, and run the command. Sending the same file again replays the first
          answer; change <code className="font-mono">metadata.requestID</code> and{" "}
          <code className="font-mono">prescription.rxNumber</code> to send another transfer.
        </p>
        <div className="mt-2">
          <CopyButton text={example} label="Copy transfer.json" />
        </div>
        <details className="mt-2">
          <summary className="cursor-pointer text-blue-700">Example transfer.json</summary>
          <Code>{example}</Code>
        </details>

        <H2 id="auth">Authentication</H2>
        <p className="mt-2">
          Every /v1 request carries one of two credentials in the Authorization header (the scheme word is
          case-insensitive):
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>
            <strong>API key</strong>: <code className="font-mono">Authorization: senderKey rxk_…</code>. The bare key (
            <code className="font-mono">Authorization: rxk_…</code>) is accepted too. Keys are issued by the
            pharmacy&apos;s admin, shown once, and can be revoked or rotated.
          </li>
          <li>
            <strong>OAuth 2.0 client credentials</strong>: exchange your client id and secret for a short-lived bearer
            token at <code className="font-mono">POST /oauth/token</code> (HTTP Basic or form fields), then send{" "}
            <code className="font-mono">Authorization: Bearer rxt_…</code>. Request a new token when it expires (
            <code className="font-mono">expires_in</code> seconds).
          </li>
        </ul>
        <Code>{`curl -sS -X POST "$BASE_URL/oauth/token" \\
  -u "$CLIENT_ID:$CLIENT_SECRET" \\
  -d grant_type=client_credentials
# {"access_token":"rxt_…","token_type":"Bearer","expires_in":900}`}</Code>

        <H2 id="responses">Responses and status codes</H2>
        <p className="mt-2">
          Every answer of /v1, whatever its status, is a TransferResponse: <code className="font-mono">requestID</code>{" "}
          (your metadata.requestID, or an empty string when it could not be read), complete metadata, and an{" "}
          <code className="font-mono">error</code> with <code className="font-mono">type</code> and{" "}
          <code className="font-mono">description</code> for ERROR. The description names every failing field by its
          full path, e.g. <code className="font-mono">prescription.daysSupply is required</code>.
        </p>
        <table className="mt-3 w-full border-collapse text-left">
          <thead>
            <tr className="border-b border-slate-300 text-xs uppercase tracking-wide text-slate-500">
              <th scope="col" className="py-1 pr-4">
                Status
              </th>
              <th scope="col" className="py-1">
                When
              </th>
            </tr>
          </thead>
          <tbody>
            {STATUS_CODES.map(([code, when]) => (
              <tr key={code} className="border-b border-slate-200 align-top">
                <td className="py-1 pr-4 font-mono">{code}</td>
                <td className="py-1">{when}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <H2 id="errors">Error types</H2>
        <table className="mt-3 w-full border-collapse text-left">
          <tbody>
            {ERROR_TYPES.map((type) => (
              <tr key={type} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-1 pr-4 text-left font-mono font-normal">
                  {type}
                </th>
                <td className="py-1">{ERROR_TYPE_MEANINGS[type]}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <H2 id="retries">Retries and duplicates</H2>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>
            Your <code className="font-mono">metadata.requestID</code> is the idempotency key. Sending the same request
            again (retryCount and requestTimestamp may change) replays the first answer, with the same referenceID and
            the header <code className="font-mono">Idempotent-Replayed: true</code>. Retrying after a timeout, a 500 or
            a 503 is always safe.
          </li>
          <li>The same requestID with other content is DUPLICATE_REQUEST.</li>
          <li>
            A new requestID for a prescription (your pharmacy&apos;s NPI and rxNumber) that is already RECEIVED or
            CONFIRMED here is DUPLICATE_REQUEST, and <code className="font-mono">metadata.referenceID</code> names the
            existing transfer. After a rejection you may send the prescription again under a new requestID.
          </li>
        </ul>

        <H2 id="timing">How long review takes, and the 4-hour window</H2>
        <p className="mt-2">
          Treat a transfer as failed if no decision has reached you 4 hours after you sent it, as the interface says.
          Our pharmacists are alerted when a transfer has waited 2 and 3 hours (each store sets its own times). A
          transfer that arrives while the receiving store is closed is marked &quot;arrived after hours&quot; and alerts
          when the store opens: your 4-hour clock does not stop meanwhile, so a transfer sent at night may well time out
          before a pharmacist sees it. Send it again during opening hours under a new requestID if it was not decided.
        </p>

        <H2 id="review">Controlled substances and what review refuses</H2>
        <p className="mt-2">
          The interface carries no drug schedule, and a prescriber&apos;s DEA number says nothing about the drug. Our
          pharmacists&apos; screen takes the schedule from the drug itself (the federal schedules, 21 CFR
          1308.12–1308.15, and the receiving store&apos;s state schedules). These transfers are answered by callback
          with ERROR:
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>
            <strong>Schedule II</strong> (oxycodone, hydrocodone combinations, amphetamine salts, methylphenidate…):
            ERROR <code className="font-mono">OTHER</code>. A C-II prescription may be transferred only as the unaltered
            electronic prescription over NCPDP SCRIPT 2022011 or later (21 CFR 1306.08(e)-(i)), which a JSON copy is
            not.
          </li>
          <li>
            <strong>Schedule III–V never filled</strong> (<code className="font-mono">firstFilledDate</code> null:
            alprazolam, tramadol, zolpidem, testosterone, buprenorphine-naloxone, pregabalin…): ERROR{" "}
            <code className="font-mono">OTHER</code>. A Schedule III–V prescription may be transferred only for refill
            dispensing (21 CFR 1306.25(a)); its first fill may move only as the unaltered electronic prescription (21
            CFR 1306.08(e)-(g)), which a JSON copy is not. Transfer the electronic prescription, or ask the prescriber
            for a new one to the receiving pharmacy.
          </li>
          <li>
            <strong>Schedule III–IV written more than 6 months ago</strong>, or any prescription past its legal validity
            (by default 12 months after it was written): <code className="font-mono">RX_EXPIRED</code> (21 CFR 1306.22).
            The months are counted in calendar months from <code className="font-mono">writtenDate</code> (the date as
            you wrote it), and judged on the receiving store&apos;s own calendar day, in its time zone: a prescription
            is valid through the last day, until midnight where the store is.
          </li>
          <li>
            <strong>Schedule III–IV with no lawful refill left</strong> (at most 5 refills after the first fill in all):{" "}
            <code className="font-mono">INVALID_INFO</code>. Send <code className="font-mono">refillsAuthorized</code>{" "}
            including the first fill, as the interface defines it. When more refills were written than the law allows,
            the transfer can still be approved, but for the lawful number only: our records and the prescription we pass
            on state the valid refills remaining (5 less those used), whatever{" "}
            <code className="font-mono">refillsRemaining</code> says.
          </li>
          <li>
            <strong>Schedule III–V</strong> may be transferred once between pharmacies (21 CFR 1306.25(a)): do not send
            a prescription that was transferred to you. Send the prescriber&apos;s DEA number for every controlled
            substance.
          </li>
        </ul>

        <H2 id="returning-patients">Returning patients</H2>
        <p className="mt-2">
          Our pharmacists see each patient&apos;s earlier transfers here, and are warned of duplicate therapy (another
          pending or approved transfer of the same substance, under any brand or generic name, within 90 days). A
          transfer is matched to the same patient by the same last name, first name and date of birth (case, accents,
          punctuation and spaces do not matter; another date of birth is another person), or by your{" "}
          <code className="font-mono">metadata.patientReferenceID</code>: send the same value for every transfer of one
          patient profile. It is compared only with your own transfers, never another sender&apos;s.
        </p>

        <CallbacksDocs />

        <DispensingDocs />

        <H2 id="endpoints">Endpoints</H2>
        {Object.entries(doc.paths).map(([path, methods]) =>
          Object.entries(methods).map(([method, op]) => (
            <section key={`${method} ${path}`} className="mt-4" aria-label={`${method.toUpperCase()} ${path}`}>
              <h3 className="font-mono text-base font-semibold">
                {method.toUpperCase()} {path}
              </h3>
              {op.summary && <p className="mt-1">{op.summary}</p>}
              {op.description && <p className="mt-1 whitespace-pre-line text-slate-600">{op.description}</p>}
            </section>
          )),
        )}

        <H2 id="schemas">Data shapes</H2>
        {schemaNames.map((name) => (
          <SchemaFields key={name} name={name} schemas={doc.components.schemas} />
        ))}
      </main>
    </div>
  );
}
