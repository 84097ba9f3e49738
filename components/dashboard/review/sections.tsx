// The review screen's read-only sections, grouped as a pharmacist reads a transfer. Server components:
// the data arrives already rendered (and the view already recorded in the audit log).
import {
  addressLines,
  ageInYears,
  formatFax,
  formatPhone,
  fullName,
  GENDER_LABELS,
} from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { AllergyWarnings } from "@/components/dashboard/review/allergy-warnings";
import { normalizeNdc, type AllergyWarning } from "@/lib/drugs";
import { scheduleLabel, type DrugReview } from "@/lib/transfers/drug-review";
import { formatQuantity } from "@/lib/transfers/quantity-units";
import { daysUntil, explainDaw, type CheckStatus, type ReviewCheck } from "@/lib/transfers/review-checks";
import type { Address, Insurance, Pharmacy, Prescriber, TransferRequest } from "@/lib/transfers/wire";

export function Section({
  title,
  children,
  className = "",
  id,
}: {
  title: string;
  children: React.ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-heading`;
  return (
    <section aria-labelledby={headingId} className={`rounded border border-slate-200 bg-white ${className}`}>
      <h2
        id={headingId}
        className="border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-700"
      >
        {title}
      </h2>
      <div className="px-3 py-2">{children}</div>
    </section>
  );
}

export function Fields({ children, columns = 1 }: { children: React.ReactNode; columns?: 1 | 2 }) {
  return <dl className={`grid gap-x-4 gap-y-1 ${columns === 2 ? "sm:grid-cols-2" : ""}`}>{children}</dl>;
}

export function Field({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === "";
  return (
    <div className={`grid grid-cols-[9.5rem_1fr] gap-2 ${wide ? "sm:col-span-2" : ""}`}>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{empty ? <span className="text-slate-600">not given</span> : children}</dd>
    </div>
  );
}

function AddressBlock({ address }: { address: Address }) {
  return (
    <address className="not-italic">
      {addressLines(address).map((line) => (
        <div key={line}>{line}</div>
      ))}
    </address>
  );
}

export function AllergyBanner({
  request,
  warnings,
}: {
  request: TransferRequest;
  warnings: readonly AllergyWarning[];
}) {
  const { allergiesDescriptor, allergies } = request.patient.allergyDetails;
  if (allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED" || allergies.length > 0) {
    return (
      <section aria-label="Allergies" className="rounded border-2 border-red-700 bg-red-50 px-3 py-2 text-red-950">
        <h2 className="text-sm font-bold uppercase tracking-wide text-red-800">Allergies ({allergies.length})</h2>
        <ul className="mt-1 flex flex-wrap gap-2 text-base font-semibold">
          {allergies.map((a) => (
            <li key={a} className="rounded bg-red-700 px-2 py-0.5 text-white">
              {a}
            </li>
          ))}
        </ul>
        <AllergyWarnings warnings={warnings} />
        <p className="mt-1 text-xs">Descriptor: {allergiesDescriptor}</p>
      </section>
    );
  }
  if (allergiesDescriptor === "NOT_AVAILABLE") {
    return (
      <section
        aria-label="Allergies"
        className="rounded border-2 border-amber-600 bg-amber-50 px-3 py-2 text-amber-950"
      >
        <h2 className="text-sm font-bold uppercase tracking-wide">Allergy information not available</h2>
        <p className="mt-1 font-medium">
          The sender did not provide allergies (NOT_AVAILABLE). Confirm allergies with the patient before dispensing.
        </p>
      </section>
    );
  }
  return (
    <section
      aria-label="Allergies"
      className="rounded border border-emerald-600 bg-emerald-50 px-3 py-2 text-emerald-950"
    >
      <h2 className="text-sm font-bold uppercase tracking-wide">No known allergies</h2>
      <p className="mt-0.5 text-xs">Descriptor: NO_KNOWN_ALLERGIES</p>
    </section>
  );
}

export function PatientSection({ request, now }: { request: TransferRequest; now: Date }) {
  const p = request.patient;
  return (
    <Section title="Patient">
      <Fields>
        <Field label="Name">{fullName(p.name)}</Field>
        <Field label="Date of birth">
          {p.dateOfBirth} <span className="text-slate-600">(age {ageInYears(p.dateOfBirth, now)})</span>
        </Field>
        <Field label="Gender">{GENDER_LABELS[p.gender] ?? p.gender}</Field>
        <Field label="Address">
          <AddressBlock address={p.address} />
        </Field>
        <Field label="Phone">{formatPhone(p.contactInfo)}</Field>
        <Field label="Email">{p.email}</Field>
        <Field label="Sender's patient ID">
          <span className="font-mono text-xs">{request.metadata.patientReferenceID}</span>
        </Field>
      </Fields>
    </Section>
  );
}

export function PrescriberSection({ prescriber }: { prescriber: Prescriber }) {
  return (
    <Section title="Prescriber">
      <Fields>
        <Field label="Name">{fullName(prescriber.name)}</Field>
        <Field label="NPI">
          <span className="font-mono">{prescriber.npi}</span>
        </Field>
        <Field label="DEA">{prescriber.dea && <span className="font-mono">{prescriber.dea}</span>}</Field>
        <Field label="Address">
          <AddressBlock address={prescriber.address} />
        </Field>
        <Field label="Phone">{formatPhone(prescriber.contactInfo)}</Field>
        <Field label="Fax">{formatFax(prescriber.faxNumber)}</Field>
        <Field label="Email">{prescriber.email}</Field>
      </Fields>
    </Section>
  );
}

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

export function PharmacySection({ title, pharmacy }: { title: string; pharmacy: Pharmacy }) {
  return (
    <Section title={title}>
      <Fields>
        <Field label="Name">{pharmacy.name}</Field>
        <Field label="NPI">
          <span className="font-mono">{pharmacy.npi}</span>
        </Field>
        <Field label="DEA">{pharmacy.dea && <span className="font-mono">{pharmacy.dea}</span>}</Field>
        <Field label="Pharmacist">{fullName(pharmacy.pharmacist)}</Field>
        <Field label="Address">
          <AddressBlock address={pharmacy.address} />
        </Field>
        <Field label="Phone">{formatPhone(pharmacy.contactInfo)}</Field>
        <Field label="Email">{pharmacy.email}</Field>
      </Fields>
    </Section>
  );
}

export function InsuranceSection({ title, insurance }: { title: string; insurance: Insurance | null }) {
  return (
    <Section title={title}>
      {insurance === null ? (
        <p className="text-slate-600">None sent.</p>
      ) : (
        <Fields>
          <Field label="Plan">{insurance.planName}</Field>
          <Field label="Cardholder">{fullName(insurance.cardHolderName)}</Field>
          <Field label="Cardholder ID">
            <span className="font-mono">{insurance.cardHolderID}</span>
          </Field>
          <Field label="Group">{insurance.groupNumber}</Field>
          <Field label="BIN">{insurance.bin && <span className="font-mono">{insurance.bin}</span>}</Field>
          <Field label="PCN">{insurance.pcn}</Field>
          <Field label="Person code">{insurance.personCode}</Field>
        </Fields>
      )}
    </Section>
  );
}

const CHECK_LOOK: Record<CheckStatus, { icon: string; label: string; className: string }> = {
  pass: { icon: "✓", label: "Passed", className: "text-emerald-700" },
  info: { icon: "i", label: "Note", className: "text-sky-700" },
  warn: { icon: "!", label: "Warning", className: "text-amber-700" },
  fail: { icon: "✗", label: "Failed", className: "text-red-700" },
};

export function ChecksSection({ checks }: { checks: ReviewCheck[] }) {
  const problems = checks.filter((c) => c.status === "warn" || c.status === "fail").length;
  return (
    <Section title={`Automated checks${problems ? ` · ${problems} to look at` : ""}`} id="checks">
      <p className="mb-1 text-xs text-slate-600">
        What to look at before deciding. Transfers with missing or invalid information were already turned away when
        they arrived.
      </p>
      <ul className="divide-y divide-slate-100">
        {checks.map((check) => {
          const look = CHECK_LOOK[check.status];
          return (
            <li key={check.id} className="grid grid-cols-[5.5rem_10rem_1fr] gap-2 py-1">
              <span className={`font-semibold ${look.className}`}>
                <span aria-hidden="true" className="inline-block w-4 text-center">
                  {look.icon}
                </span>{" "}
                {look.label}
              </span>
              <span className="font-medium">{check.title}</span>
              <span className="text-slate-700">{check.detail}</span>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

export function RawRequestSection({ raw }: { raw: unknown }) {
  return (
    <Section title="Raw request">
      <details>
        <summary className="cursor-pointer text-slate-700">
          Show the request exactly as the sender sent it (for troubleshooting)
        </summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100">
          {JSON.stringify(raw, null, 2)}
        </pre>
      </details>
    </Section>
  );
}
