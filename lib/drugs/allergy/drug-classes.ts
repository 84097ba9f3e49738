// The drug classes the allergy checks know, assembled from one file per family in one fixed order (the order
// in which a substance's classes are listed and the first of them names a warning), and the classes of each
// substance.
import type { DrugClass } from "@/lib/drugs/allergy/allergy-types";
import { recognise } from "@/lib/drugs/lexicon";
import {
  PENICILLINS,
  CEPHALOSPORINS,
  CARBAPENEMS,
  SULFONAMIDE_ANTIBIOTICS,
  MACROLIDES,
  FLUOROQUINOLONES,
  TETRACYCLINES,
  AMINOGLYCOSIDES,
  LINCOSAMIDES,
} from "@/lib/drugs/allergy/antibiotic-classes";
import { NSAIDS, SALICYLATES, OPIOIDS } from "@/lib/drugs/allergy/analgesic-classes";
import {
  ACE_INHIBITORS,
  ARBS,
  STATINS,
  SULFONYLUREAS,
  THIAZIDE_DIURETICS,
} from "@/lib/drugs/allergy/cardiometabolic-classes";
import { AROMATIC_ANTICONVULSANTS, BENZODIAZEPINES } from "@/lib/drugs/allergy/nervous-system-classes";

export const DRUG_CLASSES: readonly DrugClass[] = [
  PENICILLINS,
  CEPHALOSPORINS,
  CARBAPENEMS,
  SULFONAMIDE_ANTIBIOTICS,
  NSAIDS,
  SALICYLATES,
  OPIOIDS,
  MACROLIDES,
  FLUOROQUINOLONES,
  TETRACYCLINES,
  AMINOGLYCOSIDES,
  LINCOSAMIDES,
  ACE_INHIBITORS,
  ARBS,
  STATINS,
  AROMATIC_ANTICONVULSANTS,
  BENZODIAZEPINES,
  SULFONYLUREAS,
  THIAZIDE_DIURETICS,
];

export const CLASSES_OF_SUBSTANCE: ReadonlyMap<string, readonly DrugClass[]> = (() => {
  const map = new Map<string, DrugClass[]>();
  for (const c of DRUG_CLASSES) for (const m of c.members) map.set(m, [...(map.get(m) ?? []), c]);
  return map;
})();

/** The classes of the substances in a medication name ("Augmentin" → penicillins). */
export function drugClassesOf(medicationName: string): string[] {
  const names = new Set<string>();
  for (const s of recognise(medicationName).substances)
    for (const c of CLASSES_OF_SUBSTANCE.get(s) ?? []) names.add(c.name);
  return [...names];
}
