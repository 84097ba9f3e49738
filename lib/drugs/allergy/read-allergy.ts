// An allergy list's entry read into drug classes and substances: the drug-name index with the class words
// laid over it, so "PCN" reads as the penicillins and "Keflex" as cephalexin.
import { CLASSES_OF_SUBSTANCE, DRUG_CLASSES } from "@/lib/drugs/allergy/drug-classes";
import { DRUG_INDEX, type Term } from "@/lib/drugs/lexicon";
import { buildPhraseIndex, scanPhrases, tokenize, type PhraseIndex } from "@/lib/drugs/tokens";

/** What an allergy entry's words can mean: a whole class, or drug substances. */
type AllergyTerm = { classes: readonly string[] } | Term;

/** The drug names index, with the class words laid over it ("penicillin" alone means the class). */
const ALLERGY_INDEX: PhraseIndex<AllergyTerm> = buildPhraseIndex<AllergyTerm>(
  [
    ...[...DRUG_INDEX.values()].flat().map((e) => [e.tokens, e.value] as const),
    ...DRUG_CLASSES.flatMap((c) => c.allergyTerms.map((t) => [tokenize(t), { classes: [c.name] }] as const)),
    ...["beta lactam", "beta lactams", "betalactam", "betalactams", "b lactams"].map(
      (t) => [tokenize(t), { classes: ["penicillins", "cephalosporins", "carbapenems"] }] as const,
    ),
  ],
  (existing, added) => ("classes" in added ? added : existing),
);

export type ReadAllergy = { text: string; classes: ReadonlySet<string>; substances: readonly string[] };

export function readAllergy(allergy: string): ReadAllergy {
  const { hits } = scanPhrases(tokenize(allergy), ALLERGY_INDEX);
  const classes = new Set<string>();
  const substances: string[] = [];
  for (const h of hits) {
    if ("classes" in h.value) for (const c of h.value.classes) classes.add(c);
    else for (const s of h.value.substances) if (!substances.includes(s)) substances.push(s);
  }
  return { text: allergy.trim(), classes, substances };
}

/** The drug classes an allergy entry stands for: named outright, or through the drugs it names. */
export function allergyClassesOf(allergy: string): string[] {
  const read = readAllergy(allergy);
  const names = new Set(read.classes);
  for (const s of read.substances) for (const c of CLASSES_OF_SUBSTANCE.get(s) ?? []) names.add(c.name);
  return [...names];
}
