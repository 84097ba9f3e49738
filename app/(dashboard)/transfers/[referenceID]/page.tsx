// The review screen: everything a pharmacist needs to decide, grouped; the view is recorded in the audit log.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ActivityPanel } from "@/components/dashboard/review/activity-panel";
import { DuplicateTherapyWarning } from "@/components/dashboard/review/duplicate-therapy-warning";
import { NextForPatient } from "@/components/dashboard/review/next-for-patient";
import { PatientHistory } from "@/components/dashboard/review/patient-history";
import { ImmediateNotice } from "@/components/dashboard/review/immediate-notice";
import { ReviewActions } from "@/components/dashboard/review/review-actions";
import { AllergyBanner } from "@/components/dashboard/review/allergy-banner";
import { ChecksSection, RawRequestSection } from "@/components/dashboard/review/checks-section";
import {
  InsuranceSection,
  PatientSection,
  PharmacySection,
  PrescriberSection,
} from "@/components/dashboard/review/party-sections";
import { PrescriptionSection } from "@/components/dashboard/review/prescription-section";
import { Section } from "@/components/dashboard/review/section-layout";
import { LocalTime } from "@/components/ui/local-time";
import { requirePageUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { clientAddressOf } from "@/lib/http/request-context";
import { findImmediateRecord } from "@/lib/immediate-confirm/find-immediate-record";
import { claimMs } from "@/lib/transfers/decision";
import { getTransferActivity } from "@/lib/transfers/record";
import { getTransferReview } from "@/lib/transfers/review";
import { SENDER_WINDOW_MS, sortName } from "@/lib/interface";

export const metadata: Metadata = { title: "Review transfer" };

type Props = { params: Promise<{ referenceID: string }> };

export default async function ReviewPage({ params }: Props) {
  const { referenceID } = await params;
  const user = await requirePageUser(`/transfers/${encodeURIComponent(referenceID)}`);
  const clientAddress = clientAddressOf(new Request("http://local", { headers: await headers() }));
  // Side by side: the live state does not wait for the review's reads and audit record (its timeline shows
  // this view from its next refresh on).
  let review, activity;
  try {
    [review, activity] = await Promise.all([
      getTransferReview(referenceID, { actor: user, clientAddress, screen: "review" }),
      getTransferActivity(referenceID),
    ]);
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  const immediate = review.status === "CONFIRMED" && !review.decision ? await findImmediateRecord(referenceID) : null;
  const now = new Date(review.serverTime);
  const request = review.request;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-lg font-semibold">
          {request ? sortName(request.patient.name) : "Transfer"}
          {request && <span className="ml-2 font-normal text-slate-600">DOB {request.patient.dateOfBirth}</span>}
        </h1>
        {request && (
          <span className="text-base">
            {request.prescription.medicationName} {request.prescription.drugStrength}
          </span>
        )}
        <span className="text-slate-600">
          from {review.partner.name} · received <LocalTime iso={review.receivedAt} />
        </span>
        <span className="font-mono text-xs text-slate-500">{review.referenceID}</span>
      </div>

      <ReviewActions
        referenceID={review.referenceID}
        initial={activity}
        user={{ id: user.id, name: user.name, role: user.role }}
        windowMs={SENDER_WINDOW_MS}
        storeTimeZone={review.storeRules.timeZone}
        claimMs={claimMs()}
        blocked={review.drug?.blocks.map((b) => b.title) ?? []}
        approval={request && review.storeRules ? { request, rules: review.storeRules } : null}
        summary={{
          patient: request ? sortName(request.patient.name) : review.referenceID,
          drug: request
            ? `${request.prescription.medicationName} ${request.prescription.drugStrength}`
            : "this prescription",
          sender: review.partner.name,
        }}
      />

      <ImmediateNotice miss={review.immediateMiss} record={immediate} />

      {/* The patient's history, duplicate therapy and "Next for this patient" (loaded apart: never blocks a decision). */}
      <NextForPatient referenceID={review.referenceID} />
      <DuplicateTherapyWarning referenceID={review.referenceID} />

      {request ? (
        <>
          <AllergyBanner request={request} warnings={review.drug?.allergyWarnings ?? []} />
          <PatientHistory referenceID={review.referenceID} />
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-2 2xl:grid-cols-3">
            <PatientSection request={request} now={now} />
            <div className="lg:row-span-2">
              {review.drug && <PrescriptionSection request={request} drug={review.drug} />}
            </div>
            <ChecksSection checks={review.checks} />
            <PrescriberSection prescriber={request.prescriber} />
            <PharmacySection title="Sending pharmacy" pharmacy={request.sendingPharmacy} />
            <PharmacySection title="Receiving pharmacy" pharmacy={request.receivingPharmacy} />
            <InsuranceSection title="Primary insurance" insurance={request.primaryInsurance} />
            <InsuranceSection title="Secondary insurance" insurance={request.secondaryInsurance} />
            <Section title="Timeline">
              <ActivityPanel referenceID={review.referenceID} initial={activity} />
            </Section>
          </div>
        </>
      ) : (
        <>
          <ChecksSection checks={review.checks} />
          <PatientHistory referenceID={review.referenceID} />
          <Section title="Timeline">
            <ActivityPanel referenceID={review.referenceID} initial={activity} />
          </Section>
        </>
      )}
      <RawRequestSection raw={review.raw} />
    </div>
  );
}
