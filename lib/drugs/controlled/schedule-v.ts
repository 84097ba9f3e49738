// Schedule V (21 CFR 1308.15) as single-entity substances: the antiepileptics and lasmiditan. Codeine and
// diphenoxylate preparations reach Schedule V through combination-rules.ts.
import type { ControlledSubstance } from "@/lib/drugs/controlled/entry-types";

export const SCHEDULE_V: readonly ControlledSubstance[] = [
  { substance: "pregabalin", schedule: "V", narcotic: false, brands: ["Lyrica"] },
  { substance: "lacosamide", schedule: "V", narcotic: false, brands: ["Vimpat", "Motpoly"] },
  { substance: "brivaracetam", schedule: "V", narcotic: false, brands: ["Briviact"] },
  { substance: "cenobamate", schedule: "V", narcotic: false, brands: ["Xcopri"] },
  { substance: "lasmiditan", schedule: "V", narcotic: false, brands: ["Reyvow"] },
  { substance: "ezogabine", schedule: "V", narcotic: false, brands: ["Potiga"], aliases: ["retigabine"] },
  { substance: "ganaxolone", schedule: "V", narcotic: false, brands: ["Ztalmy"] },
];
