// Which allergy classes make another class, or particular substances, a caution (lib/drugs/allergy-classes.ts
// says why each is there).
import type { CrossReactivity } from "@/lib/drugs/allergy/allergy-types";

export const CROSS_REACTIVITY: readonly CrossReactivity[] = [
  { allergyClass: "penicillins", drugClass: "cephalosporins" },
  { allergyClass: "penicillins", drugClass: "carbapenems" },
  { allergyClass: "cephalosporins", drugClass: "penicillins" },
  { allergyClass: "cephalosporins", drugClass: "carbapenems" },
  { allergyClass: "salicylates", drugClass: "NSAIDs" },
  { allergyClass: "NSAIDs", drugClass: "salicylates" },
  { allergyClass: "ACE inhibitors", drugClass: "ARBs" },
  {
    allergyClass: "sulfonamide antibiotics",
    substances: ["celecoxib"],
    message:
      "{drug} is a sulfonamide whose label lists sulfonamide allergy as a contraindication; the patient is allergic to {allergy}",
  },
];
