// The approval as the receiving pharmacy's legal transfer record (21 CFR 1306.25): read from the
// immutable decision row and the request as received, laid out to print.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PrintButton } from "@/components/dashboard/review/print-button";
import { FhirDownload } from "@/components/dashboard/review/fhir-download";
import { LocalTime } from "@/components/ui/local-time";
import { requirePageUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { findImmediateRecord } from "@/lib/immediate-confirm/find-immediate-record";
import { clientAddressOf } from "@/lib/http/request-context";
import { errorTypeText } from "@/lib/transfers/decision";
import { getTransferReview } from "@/lib/transfers/review";
import { buildTransferRecord } from "@/lib/transfers/record";

export const metadata: Metadata = { title: "Transfer record" };

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <tr className="border-b border-slate-200 align-top">
      <th
        scope="row"
        className="w-28 py-0.5 pr-3 text-left font-medium text-slate-600 sm:w-72 print:w-[42%] print:py-px"
      >
        {label}
      </th>
      <td className="break-words py-0.5 [overflow-wrap:anywhere] print:py-px">
        {children ?? <span className="text-slate-600">not given</span>}
      </td>
    </tr>
  );
}

export default async function RecordPage({ params }: { params: Promise<{ referenceID: string }> }) {
  const { referenceID } = await params;
  const user = await requirePageUser(`/transfers/${encodeURIComponent(referenceID)}/record`);
  const clientAddress = clientAddressOf(new Request("http://local", { headers: await headers() }));
  let review;
  try {
    review = await getTransferReview(referenceID, { actor: user, clientAddress, screen: "record" });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  const { decision, request } = review;
  const immediate = decision ? null : await findImmediateRecord(referenceID);
  if (immediate) {
    return (
      <div className="max-w-2xl space-y-2">
        <h1 className="text-lg font-semibold">Transfer record</h1>
        <p data-testid="immediate-record">
          Transfer {referenceID} was {immediate.words}.
        </p>
        {!immediate.verified && <p>Not released to the dispensing system until a pharmacist verifies it.</p>}
        <Link href="/transfers/to-verify" prefetch={false} className="text-blue-700 underline">
          Confirmed automatically, to verify
        </Link>
      </div>
    );
  }
  if (!decision || decision.decision !== "APPROVED" || !request) {
    return (
      <div className="max-w-2xl space-y-2">
        <h1 className="text-lg font-semibold">No transfer record</h1>
        <p>
          A transfer record exists only for an approved transfer. This one is{" "}
          {review.status === "RECEIVED" ? "still waiting for review" : "rejected"}.
        </p>
        {decision?.decision === "REJECTED" && (
          <p>
            Rejected ({errorTypeText(decision.errorType)}) by {decision.pharmacistName} at{" "}
            <LocalTime iso={decision.decidedAt} />. Sent to the sender:{" "}
            <q className="font-medium">{decision.description}</q>
          </p>
        )}
        <Link href={`/transfers/${referenceID}`} prefetch={false} className="text-blue-700 underline">
          Back to the transfer
        </Link>
      </div>
    );
  }
  const sections = buildTransferRecord({ referenceID: review.referenceID, request, decision, store: review.store });
  return (
    <article className="record mx-auto max-w-3xl bg-white p-3 sm:p-6 print:max-w-none print:p-0 print:text-[9.5pt] print:leading-tight">
      <div className="mb-3 flex items-center justify-between gap-2 print:hidden">
        <Link href={`/transfers/${referenceID}`} prefetch={false} className="text-blue-700 underline">
          Back to the transfer
        </Link>
        <span>
          <PrintButton />
          <FhirDownload referenceID={review.referenceID} />
        </span>
      </div>
      <h1 className="text-xl font-semibold">
        <span className="tracking-widest">TRANSFER</span> · prescription transfer record
      </h1>
      <p className="text-slate-600">
        Received by transfer from another pharmacy · 21 CFR 1306.25 · recorded{" "}
        <LocalTime iso={decision.decidedAt} seconds />
      </p>
      {/* On paper the sections flow in two columns, so the whole record fits one US Letter page. */}
      <div className="print:columns-2 print:gap-6">
        {sections.map((section) => (
          <section
            key={section.title}
            aria-labelledby={`record-${section.title.replace(/\W+/g, "-").toLowerCase()}`}
            className="break-inside-avoid"
          >
            <h2
              id={`record-${section.title.replace(/\W+/g, "-").toLowerCase()}`}
              className="mt-3 border-b-2 border-slate-800 text-sm font-semibold uppercase tracking-wide print:mt-2"
            >
              {section.title}
            </h2>
            <table className="w-full table-fixed">
              <tbody>
                {section.elements.map((el) => (
                  <Row key={el.key} label={el.label}>
                    {el.value}
                  </Row>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
      <p className="mt-3 text-xs text-slate-500">
        Recorded {decision.decidedAt} by {decision.pharmacistName}. This record is kept unaltered: the database refuses
        changes to it. Response {decision.response.metadata.responseID} was sent to the transferring pharmacy.
      </p>
    </article>
  );
}
