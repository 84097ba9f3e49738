// Word tokens and phrase lookup for drug names as senders write them ("Hydrocodone Bitartrate and
// Acetaminophen 10-325 MG Oral Tablet", "APAP/codeine #3"). Names are compared word by word, never by
// substring, so "codeine" cannot match inside "dihydrocodeine" and "hydroxyzine" is not "hydrocodone".
// Indexes are built once at module load; a lookup is a few Map reads per word.

/** A dose form that changes a schedule (codeine with guaifenesin: liquid V, tablet III). */
export type DoseForm = "liquid" | "solid";

/**
 * Lower-case words and numbers of a text: accents dropped, every other character a separator, letters and
 * digits split apart ("10mg" → "10", "mg"; "#3" → "3"; "B12" → "b", "12").
 */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .match(/[a-z]+|\d+(?:\.\d+)?/g) ?? []
  );
}

export type PhraseIndex<T> = ReadonlyMap<string, readonly { tokens: readonly string[]; value: T }[]>;

/**
 * An index from phrases (each a token list) to values. Phrases sharing a first word are kept longest
 * first, so a scan prefers "tylenol with codeine" to "tylenol". `merge` decides what an already indexed
 * phrase becomes when it is added again (by default: an error, so conflicting data fails its tests).
 */
export function buildPhraseIndex<T>(
  entries: Iterable<readonly [phrase: readonly string[], value: T]>,
  merge: (existing: T, added: T, phrase: string) => T = (_existing, _added, phrase) => {
    throw new Error(`drug tables: the phrase "${phrase}" is defined twice`);
  },
): PhraseIndex<T> {
  const byPhrase = new Map<string, { tokens: readonly string[]; value: T }>();
  for (const [tokens, value] of entries) {
    if (tokens.length === 0) continue;
    const key = tokens.join(" ");
    const existing = byPhrase.get(key);
    byPhrase.set(key, { tokens, value: existing ? merge(existing.value, value, key) : value });
  }
  const index = new Map<string, { tokens: readonly string[]; value: T }[]>();
  for (const entry of byPhrase.values()) {
    const first = entry.tokens[0]!;
    const list = index.get(first) ?? [];
    list.push(entry);
    index.set(first, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return index;
}

export type PhraseHit<T> = { start: number; end: number; value: T };

/** Greedy longest-match scan: the phrases found, left to right, and the words no phrase covered. */
export function scanPhrases<T>(
  tokens: readonly string[],
  index: PhraseIndex<T>,
): { hits: PhraseHit<T>[]; rest: string[] } {
  const hits: PhraseHit<T>[] = [];
  const rest: string[] = [];
  let i = 0;
  outer: while (i < tokens.length) {
    const candidates = index.get(tokens[i]!);
    if (candidates) {
      for (const c of candidates) {
        if (startsWithAt(tokens, i, c.tokens)) {
          hits.push({ start: i, end: i + c.tokens.length, value: c.value });
          i += c.tokens.length;
          continue outer;
        }
      }
    }
    rest.push(tokens[i]!);
    i++;
  }
  return { hits, rest };
}

/** True when `phrase` occurs in `tokens` as consecutive words. */
export function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (startsWithAt(tokens, i, phrase)) return true;
  }
  return false;
}

function startsWithAt(tokens: readonly string[], at: number, phrase: readonly string[]): boolean {
  if (at + phrase.length > tokens.length) return false;
  for (let j = 0; j < phrase.length; j++) if (tokens[at + j] !== phrase[j]) return false;
  return true;
}

// Words a drug name carries besides its active substances: salts and esters, dose forms, release
// descriptors, routes, units and packaging. Left over after the substances are found, they say nothing
// about the schedule; any other left-over word keeps a name from counting as "known non-controlled".
// prettier-ignore
const SALTS = [
  "hydrochloride", "hcl", "hydrobromide", "hbr", "bitartrate", "tartrate", "sulfate", "sulphate", "bisulfate",
  "succinate", "mesylate", "dimesylate", "besylate", "maleate", "fumarate", "citrate", "phosphate", "acetate",
  "sodium", "potassium", "calcium", "magnesium", "bromide", "chloride", "napsylate", "polistirex", "tannate",
  "cypionate", "enanthate", "undecanoate", "propionate", "dipropionate", "decanoate", "valerate", "hyclate",
  "monohydrate", "trihydrate", "dihydrate", "hemihydrate", "anhydrous", "base", "lactate", "gluconate",
  "carbonate", "nitrate", "pamoate", "malate", "saccharate", "aspartate", "salt", "salts", "mixed", "myristate",
  "terephthalate", "oxalate", "furoate", "acetonide", "xinafoate", "butyrate", "embonate", "stearate",
  "bicarbonate", "medoxomil", "axetil", "proxetil", "pivoxil", "enacarbil", "hydrate", "na", "pot", "sod", "mag",
  "dihydrochloride", "trometamol", "tromethamine", "dipotassium", "benzathine", "procaine", "lysine", "disodium", "ethyl",
];
// prettier-ignore
const FORMS_AND_UNITS = [
  "tablet", "tablets", "tab", "tabs", "tb", "capsule", "capsules", "cap", "caps", "cp", "caplet", "caplets",
  "solution", "soln", "sol", "syrup", "syr", "elixir", "elix", "liquid", "liq", "suspension", "susp",
  "concentrate", "conc", "drops", "drop", "gtts", "tincture", "intensol", "oral", "po", "injection", "inj",
  "injectable", "vial", "vials", "ampule", "ampul", "syringe", "prefilled", "autoinjector", "pen", "pens",
  "cartridge", "patch", "patches", "transdermal", "film", "films", "buccal", "sublingual", "sl", "nasal",
  "spray", "inhaler", "inhalation", "inhaled", "aerosol", "hfa", "mdi", "dpi", "nebulizer", "neb", "nebs",
  "respimat", "diskus", "ellipta", "handihaler", "flexpen", "kwikpen", "solostar", "flextouch", "gel",
  "cream", "ointment", "oint", "lotion", "foam", "shampoo", "topical", "top", "ophthalmic", "ophth", "opth",
  "otic", "eye", "ear", "vaginal", "rectal", "suppository", "suppositories", "supp", "enema", "powder",
  "packet", "packets", "granules", "sprinkle", "chewable", "chew", "chewables", "dispersible",
  "disintegrating", "orally", "odt", "lozenge", "troche", "wafer", "strip", "strips", "pellet", "pellets",
  "implant", "kit", "pack", "dose", "doses", "metered", "pump", "bottle", "unit", "units", "iu", "meq", "mg",
  "mcg", "ug", "gm", "gram", "grams", "ml", "l", "kg", "hr", "hrs", "hour", "hours", "day", "days", "week",
  "percent", "pct", "extended", "release", "released", "delayed", "sustained", "controlled", "modified",
  "immediate", "long", "acting", "er", "xr", "cr", "sr", "la", "xl", "dr", "ec", "ir", "cd", "mr", "sa", "xt",
  "ta", "enteric", "coated", "coat", "im", "iv", "sc", "subq", "sq", "subcutaneous",
  "intramuscular", "intravenous", "infusion", "premix", "premixed", "bag", "ds", "ss", "forte", "plus",
  "junior", "jr", "children", "childrens", "child", "pediatric", "infant", "infants", "adult", "extra",
  "strength", "maximum", "max", "regular", "low", "high", "usp", "nf", "generic", "brand", "name", "each",
  "per", "with", "and", "w", "in", "of", "the", "for", "or", "to", "no", "number", "osm", "oros", "mph",
  "pm", "am", "hs", "qd", "bid", "tid", "otc", "rx", "ea", "ct", "count", "blister", "ud",
  "starter", "titration", "maintenance", "refill", "sample", "preservative", "free", "pf", "sugar",
  "alcohol", "flavor", "flavored", "cherry", "grape", "orange", "mint", "aq", "aqueous", "act", "actuation",
  "actuations", "puff", "puffs", "inh", "blst", "dev", "device", "disk", "spacer", "dosepak", "dosepack",
  "dospak", "fe", "pennkinetic",
];

const NOISE: ReadonlySet<string> = new Set([...SALTS, ...FORMS_AND_UNITS]);

/** True for a word that says nothing about what substance a name contains (salt, form, unit, number…). */
export function isNoiseWord(token: string): boolean {
  return token.length === 1 || /\d/.test(token) || NOISE.has(token);
}

const LIQUID_WORDS: ReadonlySet<string> = new Set([
  "solution",
  "soln",
  "sol",
  "syrup",
  "syr",
  "elixir",
  "elix",
  "liquid",
  "liq",
  "suspension",
  "susp",
  "concentrate",
  "conc",
  "ml",
  "drops",
  "tincture",
  "intensol",
]);
const SOLID_WORDS: ReadonlySet<string> = new Set([
  "tablet",
  "tablets",
  "tab",
  "tabs",
  "tb",
  "capsule",
  "capsules",
  "cap",
  "caps",
  "cp",
  "caplet",
  "caplets",
]);

/** The dose form the words state, or null when they state none (or both). */
export function doseFormOf(tokens: readonly string[]): DoseForm | null {
  let liquid = false;
  let solid = false;
  for (const t of tokens) {
    if (LIQUID_WORDS.has(t)) liquid = true;
    else if (SOLID_WORDS.has(t)) solid = true;
  }
  return liquid === solid ? null : liquid ? "liquid" : "solid";
}
