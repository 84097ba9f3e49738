// Allergy cross-checks a pharmacist does at a glance: is the drug in a class the patient is allergic to
// (danger), or in a class known to cross-react with it (caution)? Allergy lists arrive as free text
// ("PCN", "Sulfa drugs", "Keflex", "ASA", "latex"); each entry is read into drug classes and substances
// with the same word matching as drug names, and non-drug allergies (latex, peanuts) come out as nothing.
//
// Choices, for the record:
// - Sulfonamide antibiotic allergy ("sulfa") is NOT extended to sulfonylureas, thiazide or loop diuretics
//   or acetazolamide: the non-antibiotic sulfonamides lack the arylamine group behind the reaction, and
//   studies find no cross-allergy beyond a general tendency to drug allergy. Celecoxib is the exception
//   (caution) because its label lists sulfonamide allergy as a contraindication; sulfasalazine is treated
//   as a sulfa antibiotic (it releases sulfapyridine, an arylamine sulfonamide).
// - Aspirin and the other NSAIDs warn each other as "caution" (cross-reactive NSAID hypersensitivity is
//   common but not certain); an allergy naming "NSAIDs" itself is "danger" for every NSAID.
// - Opioid "allergies" are mostly intolerance: another opioid is "caution", worded "less likely" when the
//   drug is from a different chemical group than the allergen (phenanthrene vs phenylpiperidine…).
// - Penicillin → cephalosporin and carbapenem, cephalosporin → penicillin and carbapenem, ACE inhibitor
//   → ARB (angioedema) are "caution": small cross-reactivity, warn but do not block.
//
// The classes live in one file per family under allergy/, with the reading of an allergy list and the
// warnings beside them; this module is their one entry point.
export type { AllergySeverity, AllergyWarning, CrossReactivity, DrugClass } from "@/lib/drugs/allergy/allergy-types";
export { allergyWarnings } from "@/lib/drugs/allergy/allergy-warnings";
export { CROSS_REACTIVITY } from "@/lib/drugs/allergy/cross-reactivity";
export { DRUG_CLASSES, drugClassesOf } from "@/lib/drugs/allergy/drug-classes";
export { allergyClassesOf } from "@/lib/drugs/allergy/read-allergy";
