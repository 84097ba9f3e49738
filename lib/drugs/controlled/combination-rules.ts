// Where a combination product's schedule differs from its parent substance's (codeine with acetaminophen
// is III, codeine cough syrups are V, hydrocodone combinations are II), and the exempted products whose
// status depends on the exact product. lib/drugs/README.md has the table with its sources.
import type { CombinationRule } from "@/lib/drugs/controlled/entry-types";

/** Companions that make a codeine or dihydrocodeine product a cough-and-cold preparation (a liquid). */
export const COUGH_COLD_COMPANIONS: readonly string[] = [
  "guaifenesin",
  "promethazine",
  "chlorpheniramine",
  "brompheniramine",
  "dexchlorpheniramine",
  "pyrilamine",
  "triprolidine",
  "pseudoephedrine",
  "phenylephrine",
];

export const COMBINATION_RULES: readonly CombinationRule[] = [
  // Codeine (21 CFR 1308.13(e)(1)(ii): ≤ 90 mg per dosage unit with a non-narcotic ingredient → III;
  // 1308.15(c)(1): ≤ 200 mg per 100 mL or 100 g → V). Every marketed codeine liquid with other actives is
  // within the Schedule V limit (acetaminophen-codeine oral solution is labelled CV), and no tablet is
  // (a 10 mg tablet would have to weigh 5 g), so the dose form decides; without a form, cough-and-cold
  // companions mean a syrup and analgesic companions a tablet.
  {
    substance: "codeine",
    with: "any",
    form: "liquid",
    schedule: "V",
    narcotic: true,
    cfr: "21 CFR 1308.15(c)",
    note: "codeine in a liquid with non-narcotic ingredients (not more than 200 mg per 100 mL)",
  },
  {
    substance: "codeine",
    with: "any",
    form: "solid",
    schedule: "III",
    narcotic: true,
    cfr: "21 CFR 1308.13(e)",
    note: "codeine with non-narcotic ingredients in a tablet or capsule (not more than 90 mg per unit)",
  },
  {
    substance: "codeine",
    with: COUGH_COLD_COMPANIONS,
    schedule: "V",
    narcotic: true,
    cfr: "21 CFR 1308.15(c)",
    note: "a codeine cough preparation (not more than 200 mg per 100 mL)",
  },
  {
    substance: "codeine",
    with: "any",
    schedule: "III",
    narcotic: true,
    cfr: "21 CFR 1308.13(e)",
    note: "codeine with non-narcotic ingredients (not more than 90 mg per unit)",
  },
  // Dihydrocodeine: III as a tablet or capsule with other actives (1308.13(e)), V in a liquid of not more
  // than 100 mg per 100 mL (1308.15(c)).
  {
    substance: "dihydrocodeine",
    with: "any",
    form: "liquid",
    schedule: "V",
    narcotic: true,
    cfr: "21 CFR 1308.15(c)",
    note: "dihydrocodeine in a liquid with non-narcotic ingredients (not more than 100 mg per 100 mL)",
  },
  {
    substance: "dihydrocodeine",
    with: COUGH_COLD_COMPANIONS,
    schedule: "V",
    narcotic: true,
    cfr: "21 CFR 1308.15(c)",
    note: "a dihydrocodeine cough preparation (not more than 100 mg per 100 mL)",
  },
  {
    substance: "dihydrocodeine",
    with: "any",
    schedule: "III",
    narcotic: true,
    cfr: "21 CFR 1308.13(e)",
    note: "dihydrocodeine with non-narcotic ingredients (not more than 90 mg per unit)",
  },
  {
    substance: "hydrocodone",
    with: "any",
    schedule: "II",
    narcotic: true,
    cfr: "21 CFR 1308.12(b)(1)",
    note: "hydrocodone combination products have been Schedule II since October 6, 2014",
  },
  {
    substance: "diphenoxylate",
    with: ["atropine"],
    schedule: "V",
    narcotic: true,
    cfr: "21 CFR 1308.15(c)",
    note: "diphenoxylate with atropine (not more than 2.5 mg diphenoxylate and at least 25 mcg atropine per unit)",
  },
  {
    substance: "dronabinol",
    form: "liquid",
    schedule: "II",
    narcotic: false,
    cfr: "21 CFR 1308.12(f)",
    note: "dronabinol oral solution (Syndros) is Schedule II; the capsules in sesame oil (Marinol) are Schedule III",
  },
  // Exempted products: the same ingredients are controlled or not depending on the exact product.
  {
    substance: "butalbital",
    with: ["acetaminophen"],
    schedule: "varies",
    narcotic: false,
    cfr: "21 CFR 1308.32",
    note: "butalbital with acetaminophen is exempt from federal control only for products on DEA's Exempted Prescription Products list and Schedule III otherwise; DEA proposed in 2022 to end the exemptions, and several states schedule it",
  },
  {
    substance: "phenobarbital",
    with: ["hyoscyamine", "atropine", "scopolamine", "belladonna"],
    schedule: "varies",
    narcotic: false,
    cfr: "21 CFR 1308.32",
    note: "phenobarbital with belladonna alkaloids (Donnatal) is exempt for the products on DEA's Exempted Prescription Products list and Schedule IV otherwise",
  },
  {
    substance: "methyltestosterone",
    with: ["esterified estrogens"],
    schedule: "varies",
    narcotic: false,
    cfr: "21 CFR 1308.34",
    note: "esterified estrogens with methyltestosterone is exempt for the products on DEA's Exempt Anabolic Steroid Products list and Schedule III otherwise",
  },
];
