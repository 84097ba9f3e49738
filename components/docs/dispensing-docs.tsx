// /docs: "Connecting your dispensing system": the FHIR R4 hand-off of approved transfers, the integration
// feed and its cursor, and the mapping table (lib/fhir/mapping-table.ts).
import { FHIR_MAPPING } from "@/lib/fhir/mapping-table";

export function DispensingDocs() {
  return (
    <section aria-labelledby="dispensing">
      <h2 id="dispensing" className="mt-10 scroll-mt-4 border-b border-slate-300 pb-1 text-lg font-semibold">
        Connecting your dispensing system
      </h2>
      <p className="mt-2">
        Every approved transfer is available as a FHIR R4 <code className="font-mono">transaction</code> Bundle:
        Patient, Practitioner (the prescriber), Organization (sending and receiving pharmacy), MedicationRequest,
        Coverage and AllergyIntolerance. Entries refer to each other by <code className="font-mono">urn:uuid</code> and
        carry <code className="font-mono">ifNoneExist</code> on their identifiers, so a FHIR server can take the Bundle
        as it is. Three ways to get it: the <strong>Download FHIR bundle</strong> button on the review screen and the
        transfer record; <code className="font-mono">npm run cli -- transfers fhir &lt;referenceID&gt;</code>; and the
        integration feed.
      </p>
      <h3 className="mt-4 font-semibold">The integration feed</h3>
      <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">{`curl -sS "$BASE_URL/api/integration/transfers?limit=50&since=$CURSOR" \\
  -H "Authorization: Bearer $INTEGRATION_KEY"
# {"items":[{"referenceID":"trf_…","approvedAt":"…","cursor":"…","bundle":{"resourceType":"Bundle",…}}],
#  "nextCursor":"…","hasMore":false}`}</pre>
      <ul className="mt-2 list-disc space-y-1 pl-6">
        <li>
          An administrator creates the integration key (Administration → Integration keys, or{" "}
          <code className="font-mono">npm run cli -- integration-key create --name …</code>); it is shown once and can
          be revoked at once. A missing, unknown or revoked key: 401 problem+json with{" "}
          <code className="font-mono">WWW-Authenticate: Bearer</code>.
        </li>
        <li>
          Approved transfers come in approval order, up to <code className="font-mono">limit</code> (1–100, default 50)
          per page. Start without <code className="font-mono">since</code>; then pass the{" "}
          <code className="font-mono">nextCursor</code> you were given (or an item&apos;s own{" "}
          <code className="font-mono">cursor</code> after processing it). Keep it: the feed never skips nor repeats a
          transfer after a cursor, even while pharmacists approve at the same moment. The cursor is opaque; text that is
          not one of ours is a 400.
        </li>
        <li>
          Poll while <code className="font-mono">hasMore</code> is true, then every few seconds. Every page read is in
          our audit log.
        </li>
      </ul>
      <h3 className="mt-4 font-semibold">From our fields to FHIR</h3>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Mapping of transfer fields to FHIR R4 elements</caption>
          <thead className="border-b border-slate-300 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1.5">
                Our field
              </th>
              <th scope="col" className="px-2 py-1.5">
                FHIR element
              </th>
              <th scope="col" className="px-2 py-1.5">
                Conversion
              </th>
            </tr>
          </thead>
          <tbody>
            {FHIR_MAPPING.map((row) => (
              <tr key={row.field} className="border-b border-slate-100 align-top">
                <td className="px-2 py-1.5 font-mono text-xs">{row.field}</td>
                <td className="px-2 py-1.5 font-mono text-xs">{row.element}</td>
                <td className="px-2 py-1.5">{row.conversion}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
