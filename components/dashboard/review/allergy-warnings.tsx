// Allergy cross-check warnings (lib/drugs): red for the drug's own class, amber for cross-reactivity. Shown
// in the allergy banner and repeated in the approve dialog.
import type { AllergyWarning } from "@/lib/drugs";

export function AllergyWarnings({
  warnings,
  label = "Allergy warnings",
}: {
  warnings: readonly AllergyWarning[];
  label?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul aria-label={label} className="mt-1 space-y-1">
      {warnings.map((w) => (
        <li
          key={w.message}
          className={`rounded border-l-4 px-2 py-1 font-semibold ${w.severity === "danger" ? "border-red-800 bg-red-100 text-red-950" : "border-amber-600 bg-amber-100 text-amber-950"}`}
        >
          <span className="mr-1 uppercase">{w.severity === "danger" ? "Allergy:" : "Cross-reactivity:"}</span>
          {w.message}.
        </li>
      ))}
    </ul>
  );
}
