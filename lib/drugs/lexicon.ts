// One index of every name the drug tables know (generic names, brands, abbreviations), built once at
// module load from the controlled table and the non-controlled list, and the recogniser that reads a
// sender's medication name against it: which substances it names, by what words, in what dose form, and
// which words it could not place.
import { CONTROLLED_SUBSTANCES, type ControlledSubstance } from "@/lib/drugs/controlled-substances";
import { NON_CONTROLLED_TABLE } from "@/lib/drugs/non-controlled-drugs";
import {
  buildPhraseIndex,
  doseFormOf,
  isNoiseWord,
  scanPhrases,
  tokenize,
  type DoseForm,
  type PhraseIndex,
} from "@/lib/drugs/tokens";

/** How a phrase in a name was recognised. */
export type Term = {
  substances: readonly string[];
  /** The phrase as the tables spell it ("Xanax", "APAP", "alprazolam"). */
  label: string;
  kind: "generic" | "brand" | "alias";
  form?: DoseForm;
};

export type NonControlledDrug = {
  substances: readonly string[];
  brands: readonly string[];
  aliases: readonly string[];
};

/** The non-controlled list, one entry per line of NON_CONTROLLED_TABLE. */
export const NON_CONTROLLED_DRUGS: readonly NonControlledDrug[] = parseNonControlledTable(NON_CONTROLLED_TABLE);

export const CONTROLLED_BY_SUBSTANCE: ReadonlyMap<string, ControlledSubstance> = new Map(
  CONTROLLED_SUBSTANCES.map((c) => [c.substance, c]),
);

/** Every substance the non-controlled list knows, including the parts of its combinations. */
export const NON_CONTROLLED_SUBSTANCES: ReadonlySet<string> = new Set(
  NON_CONTROLLED_DRUGS.flatMap((d) => d.substances),
);

/** Every substance the tables know. */
export const KNOWN_SUBSTANCES: ReadonlySet<string> = new Set([
  ...CONTROLLED_BY_SUBSTANCE.keys(),
  ...NON_CONTROLLED_SUBSTANCES,
]);

export const DRUG_INDEX: PhraseIndex<Term> = buildPhraseIndex(lexiconEntries(), mergeTerms);

export type Recognition = {
  /** The name's words (and the strength's), as compared. */
  tokens: readonly string[];
  /** The phrases found, left to right. */
  terms: readonly Term[];
  /** The canonical substances, once each, in the order found. */
  substances: readonly string[];
  /** Words that are neither part of a known name nor a salt, form, unit or number. */
  unknownWords: readonly string[];
  /** The dose form the name, the strength or a brand states. */
  form: DoseForm | null;
};

/** Reads a medication name (and optionally its strength, which only informs the dose form). */
export function recognise(medicationName: string, drugStrength?: string | null): Recognition {
  const tokens = tokenize(medicationName);
  const { hits, rest } = scanPhrases(tokens, DRUG_INDEX);
  const terms = hits.map((h) => h.value);
  const substances: string[] = [];
  for (const t of terms) for (const s of t.substances) if (!substances.includes(s)) substances.push(s);
  const hinted = terms.find((t) => t.form)?.form;
  const form = hinted ?? doseFormOf(drugStrength ? [...tokens, ...tokenize(drugStrength)] : tokens);
  return { tokens, terms, substances, unknownWords: rest.filter((w) => !isNoiseWord(w)), form };
}

/** The canonical active substances recognised in a name ("Percocet 5/325" → oxycodone, acetaminophen). */
export function substancesOf(medicationName: string): string[] {
  return [...recognise(medicationName).substances];
}

function* lexiconEntries(): Generator<readonly [readonly string[], Term]> {
  for (const c of CONTROLLED_SUBSTANCES) {
    yield [tokenize(c.substance), { substances: [c.substance], label: c.substance, kind: "generic" }];
    for (const a of c.aliases ?? []) yield [tokenize(a), { substances: [c.substance], label: a, kind: "alias" }];
    for (const b of c.brands ?? []) yield [tokenize(b), { substances: [c.substance], label: b, kind: "brand" }];
    for (const p of c.products ?? []) {
      for (const b of p.brands) {
        const term: Term = { substances: [c.substance, ...(p.with ?? [])], label: b, kind: "brand" };
        yield [tokenize(b), p.form ? { ...term, form: p.form } : term];
      }
    }
  }
  for (const d of NON_CONTROLLED_DRUGS) {
    for (const s of d.substances) yield [tokenize(s), { substances: [s], label: s, kind: "generic" }];
    for (const b of d.brands) yield [tokenize(b), { substances: d.substances, label: b, kind: "brand" }];
    for (const a of d.aliases) yield [tokenize(a), { substances: d.substances, label: a, kind: "alias" }];
  }
}

/** A phrase defined twice must mean the same thing both times (a generic listed alone and in a combination). */
function mergeTerms(existing: Term, added: Term, phrase: string): Term {
  const same =
    existing.form === added.form &&
    existing.substances.length === added.substances.length &&
    existing.substances.every((s) => added.substances.includes(s));
  if (!same) {
    throw new Error(
      `drug tables: "${phrase}" means both ${existing.substances.join("+")} and ${added.substances.join("+")}`,
    );
  }
  return existing;
}

function parseNonControlledTable(table: string): NonControlledDrug[] {
  const list = (cell: string | undefined) =>
    (cell ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return table
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [generics, brands, aliases] = line.split("|");
      return {
        substances: (generics ?? "").split(" + ").map((s) => s.trim().toLowerCase()),
        brands: list(brands),
        aliases: list(aliases),
      };
    });
}
