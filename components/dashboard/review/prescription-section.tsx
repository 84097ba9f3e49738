// The review screen's prescription section: the drug, its schedule, dates, quantities and fills. Server component.
import { Badge } from "@/components/ui/badge";
import { normalizeNdc } from "@/lib/drugs";
import { scheduleLabel, type DrugReview } from "@/lib/transfers/drug-review";
import { formatQuantity } from "@/lib/transfers/quantity-units";
import { daysUntil } from "@/lib/transfers/review-checks-fills";
import { explainDaw } from "@/lib/transfers/review-checks-product";
import type { TransferRequest } from "@/lib/transfers/wire";
import { Field, Fields, Section } from "@/components/dashboard/review/section-layout";

function dateOf(value: string | null): string | null {
  return value ? value.slice(0, 10) : null;
}

/** An NDC as people read it (5-4-2), with the sender's own spelling where it differs. */
function Ndc({ value }: { value: string }) {
  const ndc = normalizeNdc(value);
  return (
    <span className="font-mono" title={ndc.note ?? undefined}>
      {ndc.display}
      {ndc.display !== value && <span className="ml-1 font-sans text-xs text-slate-500">(sent as {value})</span>}
    </span>
  );
}

/** The schedule from the drug itself, with how it was found. */
export function ScheduleLine({ drug }: { drug: DrugReview }) {
  if (drug.schedule) {
    return (
      <p className="mb-2 flex flex-wrap items-center gap-2">
        <Badge tone="violet">{scheduleLabel(drug.schedule)}</Badge>
        <span>{drug.match.basis}</span>
      </p>
    );
  }
  if (drug.match.status === "unknown") {
    return (
      <p className="mb-2 flex flex-wrap items-center gap-2">
        <Badge tone="amber">Schedule unknown</Badge>
        <span>{drug.match.basis}</span>
      </p>
    );
  }
  return <p className="mb-2 text-slate-600">{drug.match.basis}</p>;
}

export function PrescriptionSection({ request, now, drug }: { request: TransferRequest; now: Date; drug: DrugReview }) {
  const rx = request.prescription;
  const days = daysUntil(rx.expirationDate, now);
  const senderLater = rx.expirationDate.slice(0, 10) > drug.legalExpiry;
  const neverFilled = rx.firstFilledDate === null;
  return (
    <Section title="Prescription">
      <p className="mb-1 text-base font-semibold">
        {rx.medicationName} {rx.drugStrength} <span className="font-normal text-slate-600">{rx.drugForm}</span>
      </p>
      <ScheduleLine drug={drug} />
      <Fields columns={2}>
        <Field label="Sig" wide>
          <span className="font-medium">{rx.sig}</span>
        </Field>
        <Field label="Sender's Rx number">
          <span className="font-mono">{rx.rxNumber}</span>
        </Field>
        <Field label="Strength">{rx.drugStrength}</Field>
        <Field label="Form">{rx.drugForm}</Field>
        <Field label="Prescribed NDC">
          <Ndc value={rx.prescribedNDC} />
        </Field>
        <Field label={neverFilled ? "NDC to dispense" : "Dispensed NDC"}>
          {rx.dispensedNDC === null ? (
            <span className="text-slate-600">same as prescribed{neverFilled ? " (never dispensed)" : ""}</span>
          ) : (
            <span className="font-mono">
              <Ndc value={rx.dispensedNDC} />{" "}
              {rx.dispensedNDC !== rx.prescribedNDC && <Badge tone="amber">differs</Badge>}
            </span>
          )}
        </Field>
        <Field label="Quantity written">{formatQuantity(rx.quantityWritten, rx.drugForm)}</Field>
        <Field label="Quantity per fill">
          {formatQuantity(rx.quantityDispensed, rx.drugForm)}{" "}
          <span className="text-xs text-slate-500">
            (quantityDispensed: the quantity wanted per order, not a record of a dispensing)
          </span>
        </Field>
        <Field label="Days supply">{rx.daysSupply}</Field>
        <Field label="Refills authorized">
          {rx.refillsAuthorized} <span className="text-slate-500">(including the first fill)</span>
        </Field>
        <Field label="Refills remaining">{rx.refillsRemaining}</Field>
        <Field label="DAW code">{explainDaw(rx.dawCode)}</Field>
        <Field label="Substitution">{rx.canSubstitute ? "Allowed" : "Not allowed"}</Field>
        <Field label="ICD-10 code">{rx.icdCode && <span className="font-mono">{rx.icdCode}</span>}</Field>
        <Field label="Written">{dateOf(rx.writtenDate)}</Field>
        <Field label="First filled">
          {dateOf(rx.firstFilledDate) ?? <span className="text-slate-600">never filled</span>}
        </Field>
        <Field label="Last filled">{dateOf(rx.lastFilledDate)}</Field>
        <Field label="Expires (sender)">
          {dateOf(rx.expirationDate)}{" "}
          <span
            className={
              days < 0 ? "font-semibold text-red-700" : days < 30 ? "font-semibold text-amber-800" : "text-slate-600"
            }
          >
            ({days < 0 ? `expired ${-days} days ago` : `in ${days} ${days === 1 ? "day" : "days"}`})
          </span>
        </Field>
        <Field label="Legal expiry">
          <span className={senderLater ? "font-semibold text-red-700" : undefined}>{drug.legalExpiry}</span>{" "}
          <span className="text-slate-600">({drug.legalExpiryBasis})</span>
          {senderLater && (
            <span className="block font-semibold text-red-700">
              The sender&apos;s date is later than the legal expiry.
            </span>
          )}
        </Field>
        <Field label="Fax image" wide>
          {rx.faxImageURL && (
            <a href={rx.faxImageURL} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline">
              Open the transfer fax image (opens the sender&apos;s link in a new tab)
            </a>
          )}
        </Field>
      </Fields>
    </Section>
  );
}
