// The review screen's prescription section: the drug, its schedule, dates, quantities and fills. Server component.
import { Badge } from "@/components/ui/badge";
import { NDC_NOT_CHECKED, normalizeNdc } from "@/lib/drugs";
import { calendarDayIn, daysBetweenDates, instantOf } from "@/lib/interface";
import { scheduleLabel, type DrugReview, formatQuantity, explainDaw } from "@/lib/transfers/review";
import type { TransferRequest } from "@/lib/interface";
import { Field, Fields, Section } from "@/components/dashboard/review/section-layout";

/** A fill instant as the store's calendar day (the day every date rule counts). */
function dayOf(value: string | null, drug: DrugReview): string | null {
  return value ? calendarDayIn(instantOf(value), drug.timeZone) : null;
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

/** The schedule from the drug itself, with how it was found (and, once per transfer, that NDCs are not looked up). */
export function ScheduleLine({ drug }: { drug: DrugReview }) {
  const byName = drug.match.byNameOnly ? <span className="text-xs text-slate-500">{NDC_NOT_CHECKED}</span> : null;
  if (drug.schedule || drug.match.status === "unknown") {
    return (
      <p className="mb-2 flex flex-wrap items-center gap-2">
        {drug.schedule ? (
          <Badge tone="violet">{scheduleLabel(drug.schedule)}</Badge>
        ) : (
          <Badge tone="amber">Schedule unknown</Badge>
        )}
        <span>{drug.match.basis}</span>
        {byName}
      </p>
    );
  }
  return (
    <p className="mb-2 flex flex-wrap items-center gap-2 text-slate-600">
      <span>{drug.match.basis}</span>
      {byName}
    </p>
  );
}

/** Refills remaining: the lawful number (the one every output states), the sender's beside it when they differ. */
function RefillsRemaining({ request, drug }: { request: TransferRequest; drug: DrugReview }) {
  const sent = request.prescription.refillsRemaining;
  const lawful = drug.refills?.refillsRemaining ?? sent;
  if (lawful === sent) return <>{sent}</>;
  return (
    <>
      <span className="font-semibold">{lawful} lawfully</span>{" "}
      <span className="text-amber-800">(the sender says {sent}; federal law allows no more)</span>
    </>
  );
}

/** Expiry: one line per fact, and the earlier date (the stricter) decides. Days are the store's calendar days. */
function Expiry({ drug }: { drug: DrugReview }) {
  const senderFirst = drug.senderExpiry <= drug.legalExpiry;
  const until = senderFirst ? drug.senderExpiry : drug.legalExpiry;
  const days = daysBetweenDates(drug.today, until);
  const tone = days < 0 ? "font-semibold text-red-700" : days < 30 ? "font-semibold text-amber-800" : undefined;
  return (
    <>
      <span className={tone}>
        {until} (
        {days < 0
          ? `expired ${-days} ${-days === 1 ? "day" : "days"} ago`
          : days === 0
            ? "last day today"
            : `in ${days} ${days === 1 ? "day" : "days"}`}
        )
      </span>
      <span className="block text-slate-600">
        {senderFirst ? "Decides: " : ""}the sender&apos;s expiration date, {drug.senderExpiry}
      </span>
      <span className="block text-slate-600">
        {senderFirst ? "" : "Decides: "}legal expiry {drug.legalExpiry} ({drug.legalExpiryBasis})
      </span>
    </>
  );
}

export function PrescriptionSection({ request, drug }: { request: TransferRequest; drug: DrugReview }) {
  const rx = request.prescription;
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
          <span className="text-xs text-slate-500">(wanted each fill; not a record of what was dispensed)</span>
        </Field>
        <Field label="Days supply">{rx.daysSupply}</Field>
        <Field label="Refills authorized">
          {rx.refillsAuthorized} <span className="text-slate-500">(including the first fill)</span>
        </Field>
        <Field label="Refills remaining">
          <RefillsRemaining request={request} drug={drug} />
        </Field>
        <Field label="DAW code">{explainDaw(rx.dawCode)}</Field>
        <Field label="Substitution">{rx.canSubstitute ? "Allowed" : "Not allowed"}</Field>
        <Field label="ICD-10 code">{rx.icdCode && <span className="font-mono">{rx.icdCode}</span>}</Field>
        <Field label="Written">{rx.writtenDate.slice(0, 10)}</Field>
        <Field label="First filled">
          {dayOf(rx.firstFilledDate, drug) ?? <span className="text-slate-600">never filled</span>}
        </Field>
        <Field label="Last filled">{dayOf(rx.lastFilledDate, drug)}</Field>
        <Field label="Valid until">
          <Expiry drug={drug} />
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
