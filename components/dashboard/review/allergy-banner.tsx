// The allergy banner at the top of the review screen: what the sender says about allergies, and the
// warnings the drug tables raise against this drug. Server component.
import { AllergyWarnings } from "@/components/dashboard/review/allergy-warnings";
import { type AllergyWarning } from "@/lib/drugs";
import { listedAllergies, NO_KNOWN_ALLERGIES_TEXT } from "@/lib/interface";
import type { TransferRequest } from "@/lib/interface";

export function AllergyBanner({
  request,
  warnings,
}: {
  request: TransferRequest;
  warnings: readonly AllergyWarning[];
}) {
  const { allergiesDescriptor } = request.patient.allergyDetails;
  const allergies = listedAllergies(request.patient.allergyDetails);
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
          The sender has no allergy information. Confirm allergies with the patient before dispensing.
        </p>
      </section>
    );
  }
  return (
    <section
      aria-label="Allergies"
      className="rounded border border-emerald-600 bg-emerald-50 px-3 py-2 text-emerald-950"
    >
      <h2 className="text-sm font-bold uppercase tracking-wide">{NO_KNOWN_ALLERGIES_TEXT}</h2>
    </section>
  );
}
