// The approval as the receiving pharmacy's legal transfer record (21 CFR 1306.25; domain.md): read from the
// immutable decision row and the request as received, laid out to print.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { addressLines, fullName } from "@/components/dashboard/format";
import { PrintButton } from "@/components/dashboard/review/print-button";
import { LocalTime } from "@/components/ui/local-time";
import { requirePageUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { clientAddressOf } from "@/lib/http/request-context";
import { DRUG_SCHEDULE_LABELS, type DrugSchedule } from "@/lib/transfers/decision-inputs";
import { getTransferReview } from "@/lib/transfers/get-transfer-review";
import type { Address } from "@/lib/transfers/wire";

export const metadata: Metadata = { title: "Transfer record" };

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <tr className="border-b border-slate-200 align-top">
      <th scope="row" className="w-64 py-1 pr-3 text-left font-medium text-slate-600">
        {label}
      </th>
      <td className="py-1">{children ?? <span className="text-slate-400">not given</span>}</td>
    </tr>
  );
}

function Lines({ address }: { address: Address | null }) {
  if (!address) return null;
  return <>{addressLines(address).join(", ")}</>;
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
  if (!decision || decision.decision !== "APPROVED" || !request) {
    return (
      <div className="max-w-2xl space-y-2">
        <h1 className="text-lg font-semibold">No transfer record</h1>
        <p>
          A transfer record exists only for an approved transfer. This one is {review.status === "RECEIVED" ? "still waiting for review" : "rejected"}.
        </p>
        <Link href={`/transfers/${referenceID}`} prefetch={false} className="text-blue-700 underline">
          Back to the transfer
        </Link>
      </div>
    );
  }
  const rx = request.prescription;
  const sending = request.sendingPharmacy;
  const receiving = request.receivingPharmacy;
  const schedule = decision.drugSchedule as DrugSchedule | null;
  return (
    <article className="mx-auto max-w-3xl bg-white p-6 print:max-w-none print:p-0">
      <div className="mb-3 flex items-center justify-between gap-2 print:hidden">
        <Link href={`/transfers/${referenceID}`} prefetch={false} className="text-blue-700 underline">
          Back to the transfer
        </Link>
        <PrintButton />
      </div>
      <h1 className="text-xl font-semibold">Prescription transfer record</h1>
      <p className="text-slate-600">
        Received by transfer · 21 CFR 1306.25 · reference <span className="font-mono">{review.referenceID}</span>
      </p>

      <h2 className="mt-4 border-b-2 border-slate-800 text-sm font-semibold uppercase tracking-wide">Receiving pharmacy</h2>
      <table className="w-full">
        <tbody>
          <Row label="Pharmacy">{review.store?.name ?? receiving.name}</Row>
          <Row label="NPI">{receiving.npi}</Row>
          <Row label="DEA">{review.store?.dea ?? receiving.dea}</Row>
          <Row label="Address">
            <Lines address={review.store?.address ?? receiving.address} />
          </Row>
          <Row label="Receiving pharmacist">{decision.pharmacistName}</Row>
          <Row label="Date of transfer">
            <LocalTime iso={decision.decidedAt} seconds /> <span className="text-slate-500">({decision.decidedAt})</span>
          </Row>
          <Row label="Local Rx number">{decision.localRxNumber}</Row>
          <Row label="Drug schedule">{schedule ? DRUG_SCHEDULE_LABELS[schedule] ?? schedule : "Not a controlled substance (as recorded)"}</Row>
          {decision.note && <Row label="Note">{decision.note}</Row>}
        </tbody>
      </table>

      <h2 className="mt-4 border-b-2 border-slate-800 text-sm font-semibold uppercase tracking-wide">Transferring pharmacy</h2>
      <table className="w-full">
        <tbody>
          <Row label="Pharmacy">{sending.name}</Row>
          <Row label="Address">
            <Lines address={sending.address} />
          </Row>
          <Row label="DEA">{sending.dea}</Row>
          <Row label="NPI">{sending.npi}</Row>
          <Row label="Transferring pharmacist">{fullName(sending.pharmacist)}</Row>
          <Row label="Prescription (Rx) number">{rx.rxNumber}</Row>
        </tbody>
      </table>

      <h2 className="mt-4 border-b-2 border-slate-800 text-sm font-semibold uppercase tracking-wide">Prescription</h2>
      <table className="w-full">
        <tbody>
          <Row label="Patient">
            {fullName(request.patient.name)}, DOB {request.patient.dateOfBirth}, <Lines address={request.patient.address} />
          </Row>
          <Row label="Medication">
            {rx.medicationName} {rx.drugStrength} {rx.drugForm} (prescribed NDC {rx.prescribedNDC}
            {rx.dispensedNDC && rx.dispensedNDC !== rx.prescribedNDC ? `; dispensed NDC ${rx.dispensedNDC}` : ""})
          </Row>
          <Row label="Directions">{rx.sig}</Row>
          <Row label="Quantity">
            {rx.quantityWritten} written, {rx.quantityDispensed} per fill, {rx.daysSupply} days supply
          </Row>
          <Row label="Prescriber">
            {fullName(request.prescriber.name)}, NPI {request.prescriber.npi}
            {request.prescriber.dea ? `, DEA ${request.prescriber.dea}` : ""}
          </Row>
          <Row label="Date of original issue">{rx.writtenDate.slice(0, 10)}</Row>
          <Row label="Original refills authorized">{rx.refillsAuthorized} (including the first fill)</Row>
          <Row label="Date of original dispensing">{rx.firstFilledDate?.slice(0, 10) ?? "never dispensed"}</Row>
          <Row label="Refills remaining">{rx.refillsRemaining}</Row>
          <Row label="Earlier fills">
            {rx.firstFilledDate
              ? `${1 + (rx.refillsAuthorized - 1 - rx.refillsRemaining)} fill(s) at ${sending.name}; last filled ${rx.lastFilledDate?.slice(0, 10) ?? rx.firstFilledDate.slice(0, 10)}`
              : "none"}
          </Row>
          <Row label="Expires">{rx.expirationDate.slice(0, 10)}</Row>
        </tbody>
      </table>
      <p className="mt-4 text-xs text-slate-500">
        Recorded {decision.decidedAt} by {decision.pharmacistName}. This record is kept unaltered: the database refuses changes to it. Response{" "}
        {decision.response.metadata.responseID} was sent to the transferring pharmacy.
      </p>
    </article>
  );
}
