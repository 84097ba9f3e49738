// The review screen's sections about people and places: patient, prescriber, the two pharmacies, insurance.
// Server components: the data arrives already rendered (and the view already recorded in the audit log).
import { ageInYears, GENDER_LABELS } from "@/components/dashboard/format";
import {
  formatFax,
  formatPhone,
  fullName,
  type Insurance,
  type Pharmacy,
  type Prescriber,
  type TransferRequest,
} from "@/lib/interface";
import { AddressBlock, Field, Fields, Section } from "@/components/dashboard/review/section-layout";

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
