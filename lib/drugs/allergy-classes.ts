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
import { DRUG_INDEX, recognise, type Term } from "@/lib/drugs/lexicon";
import { buildPhraseIndex, scanPhrases, tokenize, type PhraseIndex } from "@/lib/drugs/tokens";

export type AllergySeverity = "danger" | "caution";

export type AllergyWarning = {
  severity: AllergySeverity;
  /** The drug's class that triggered the warning ("penicillins"), or the substance itself when it has none. */
  drugClass: string;
  /** The allergy as the sender wrote it. */
  allergy: string;
  /** The substance in the prescribed drug that the warning is about. */
  substance: string;
  message: string;
};

export type DrugClass = {
  /** Plural lower-case name, also its identifier ("penicillins"). */
  name: string;
  /** The class as a predicate noun: "Amoxicillin is a penicillin". */
  noun: string;
  members: readonly string[];
  /** Words a sender uses for the whole class in an allergy list. */
  allergyTerms: readonly string[];
  /** When the allergy names one member and the drug is another. */
  memberSeverity: AllergySeverity;
  /** Chemical groups inside the class, for wording only (opioids). */
  groups?: Readonly<Record<string, readonly string[]>>;
};

/** A class whose allergy makes another class, or particular substances, a "caution". */
export type CrossReactivity = {
  allergyClass: string;
  drugClass?: string;
  substances?: readonly string[];
  /** Replaces the standard wording; `{drug}` and `{allergy}` are filled in. */
  message?: string;
};

/** The opioids by chemical group: cross-sensitivity is likelier inside a group (the wording says so). */
const OPIOID_GROUPS: Readonly<Record<string, readonly string[]>> = {
  phenanthrene: [
    "codeine",
    "morphine",
    "hydrocodone",
    "benzhydrocodone",
    "oxycodone",
    "hydromorphone",
    "oxymorphone",
    "levorphanol",
    "dihydrocodeine",
    "buprenorphine",
    "butorphanol",
    "nalbuphine",
    "opium",
    "paregoric",
  ],
  phenylpiperidine: ["fentanyl", "sufentanil", "alfentanil", "remifentanil", "meperidine"],
  diphenylheptane: ["methadone"],
  benzomorphan: ["pentazocine"],
  "atypical opioid": ["tramadol", "tapentadol", "oliceridine"],
};

export const DRUG_CLASSES: readonly DrugClass[] = [
  {
    name: "penicillins",
    noun: "a penicillin",
    members: [
      "penicillin",
      "penicillin v",
      "penicillin g",
      "amoxicillin",
      "ampicillin",
      "dicloxacillin",
      "nafcillin",
      "oxacillin",
      "piperacillin",
    ],
    allergyTerms: ["penicillin", "penicillins", "pcn", "pcns", "pen", "penicillin class", "penicillin family"],
    memberSeverity: "danger",
  },
  {
    name: "cephalosporins",
    noun: "a cephalosporin",
    members: [
      "cephalexin",
      "cefadroxil",
      "cefazolin",
      "cefuroxime",
      "cefprozil",
      "cefaclor",
      "cefdinir",
      "cefpodoxime",
      "cefixime",
      "cefditoren",
      "ceftriaxone",
      "cefotaxime",
      "cefoxitin",
      "ceftazidime",
      "ceftolozane",
      "cefepime",
      "ceftaroline",
      "cefiderocol",
    ],
    allergyTerms: ["cephalosporin", "cephalosporins", "cephs", "cephalosporin class"],
    memberSeverity: "caution",
  },
  {
    name: "carbapenems",
    noun: "a carbapenem",
    members: ["imipenem", "meropenem", "ertapenem", "doripenem"],
    allergyTerms: ["carbapenem", "carbapenems"],
    memberSeverity: "danger",
  },
  {
    name: "sulfonamide antibiotics",
    noun: "a sulfonamide antibiotic",
    members: [
      "sulfamethoxazole",
      "sulfadiazine",
      "silver sulfadiazine",
      "sulfisoxazole",
      "sulfacetamide",
      "sulfasalazine",
    ],
    allergyTerms: [
      "sulfa",
      "sulfas",
      "sulpha",
      "sulfa drugs",
      "sulfa antibiotics",
      "sulfonamide",
      "sulfonamides",
      "sulphonamides",
      "sulfonamide antibiotics",
      "sulfa class",
    ],
    memberSeverity: "danger",
  },
  {
    name: "NSAIDs",
    noun: "an NSAID",
    members: [
      "ibuprofen",
      "naproxen",
      "diclofenac",
      "meloxicam",
      "celecoxib",
      "etodolac",
      "nabumetone",
      "indomethacin",
      "ketorolac",
      "piroxicam",
      "sulindac",
      "oxaprozin",
      "ketoprofen",
      "flurbiprofen",
      "diflunisal",
      "mefenamic acid",
      "meclofenamate",
      "fenoprofen",
      "tolmetin",
    ],
    allergyTerms: [
      "nsaid",
      "nsaids",
      "nsaid s",
      "non steroidal anti inflammatory",
      "non steroidal anti inflammatories",
      "nonsteroidal anti inflammatory",
      "nonsteroidal anti inflammatory drugs",
      "non steroidal anti inflammatory drugs",
      "nonsteroidal anti inflammatories",
      "nonsteroidals",
    ],
    memberSeverity: "caution",
  },
  {
    name: "salicylates",
    noun: "a salicylate",
    members: ["aspirin", "salsalate", "bismuth subsalicylate"],
    allergyTerms: ["salicylate", "salicylates"],
    memberSeverity: "danger",
  },
  {
    name: "opioids",
    noun: "an opioid",
    members: Object.values(OPIOID_GROUPS).flat(),
    allergyTerms: [
      "opioid",
      "opioids",
      "opiate",
      "opiates",
      "narcotic",
      "narcotics",
      "narcotic analgesics",
      "opioid analgesics",
    ],
    memberSeverity: "caution",
    groups: OPIOID_GROUPS,
  },
  {
    name: "macrolides",
    noun: "a macrolide",
    members: ["azithromycin", "clarithromycin", "erythromycin", "fidaxomicin"],
    allergyTerms: ["macrolide", "macrolides"],
    memberSeverity: "danger",
  },
  {
    name: "fluoroquinolones",
    noun: "a fluoroquinolone",
    members: ["ciprofloxacin", "levofloxacin", "moxifloxacin", "ofloxacin", "delafloxacin"],
    allergyTerms: ["fluoroquinolone", "fluoroquinolones", "quinolone", "quinolones"],
    memberSeverity: "danger",
  },
  {
    name: "tetracyclines",
    noun: "a tetracycline",
    members: [
      "doxycycline",
      "minocycline",
      "tetracycline",
      "demeclocycline",
      "sarecycline",
      "omadacycline",
      "tigecycline",
    ],
    allergyTerms: ["tetracyclines", "tetracycline class"],
    memberSeverity: "danger",
  },
  {
    name: "aminoglycosides",
    noun: "an aminoglycoside",
    members: ["gentamicin", "tobramycin", "amikacin", "neomycin"],
    allergyTerms: ["aminoglycoside", "aminoglycosides"],
    memberSeverity: "danger",
  },
  {
    name: "lincosamides",
    noun: "a lincosamide",
    members: ["clindamycin"],
    allergyTerms: ["lincosamide", "lincosamides"],
    memberSeverity: "danger",
  },
  {
    name: "ACE inhibitors",
    noun: "an ACE inhibitor",
    members: [
      "lisinopril",
      "enalapril",
      "ramipril",
      "benazepril",
      "quinapril",
      "fosinopril",
      "captopril",
      "perindopril",
      "trandolapril",
      "moexipril",
    ],
    allergyTerms: ["ace inhibitor", "ace inhibitors", "acei", "aceis", "ace i", "ace"],
    memberSeverity: "danger",
  },
  {
    name: "ARBs",
    noun: "an angiotensin receptor blocker",
    members: ["losartan", "valsartan", "olmesartan", "irbesartan", "telmisartan", "candesartan", "azilsartan"],
    allergyTerms: [
      "arb",
      "arbs",
      "angiotensin receptor blocker",
      "angiotensin receptor blockers",
      "angiotensin ii receptor blockers",
    ],
    memberSeverity: "caution",
  },
  {
    name: "statins",
    noun: "a statin",
    members: [
      "atorvastatin",
      "simvastatin",
      "rosuvastatin",
      "pravastatin",
      "lovastatin",
      "pitavastatin",
      "fluvastatin",
    ],
    allergyTerms: ["statin", "statins", "hmg coa reductase inhibitors"],
    memberSeverity: "caution",
  },
  {
    name: "aromatic anticonvulsants",
    noun: "an aromatic anticonvulsant",
    members: [
      "carbamazepine",
      "oxcarbazepine",
      "eslicarbazepine",
      "phenytoin",
      "fosphenytoin",
      "phenobarbital",
      "primidone",
      "lamotrigine",
    ],
    allergyTerms: [
      "aromatic anticonvulsant",
      "aromatic anticonvulsants",
      "aromatic antiepileptic",
      "aromatic antiepileptics",
    ],
    memberSeverity: "danger",
  },
  {
    name: "benzodiazepines",
    noun: "a benzodiazepine",
    members: [
      "alprazolam",
      "lorazepam",
      "clonazepam",
      "diazepam",
      "temazepam",
      "triazolam",
      "chlordiazepoxide",
      "clorazepate",
      "oxazepam",
      "estazolam",
      "flurazepam",
      "midazolam",
      "clobazam",
      "quazepam",
      "remimazolam",
    ],
    allergyTerms: ["benzodiazepine", "benzodiazepines", "benzo", "benzos"],
    memberSeverity: "caution",
  },
  {
    name: "sulfonylureas",
    noun: "a sulfonylurea",
    members: ["glipizide", "glimepiride", "glyburide"],
    allergyTerms: ["sulfonylurea", "sulfonylureas"],
    memberSeverity: "caution",
  },
  {
    name: "thiazide diuretics",
    noun: "a thiazide diuretic",
    members: ["hydrochlorothiazide", "chlorthalidone", "metolazone", "indapamide"],
    allergyTerms: ["thiazide", "thiazides", "thiazide diuretics"],
    memberSeverity: "caution",
  },
];

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

const CLASSES_OF_SUBSTANCE: ReadonlyMap<string, readonly DrugClass[]> = (() => {
  const map = new Map<string, DrugClass[]>();
  for (const c of DRUG_CLASSES) for (const m of c.members) map.set(m, [...(map.get(m) ?? []), c]);
  return map;
})();

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

type ReadAllergy = { text: string; classes: ReadonlySet<string>; substances: readonly string[] };

function readAllergy(allergy: string): ReadAllergy {
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

/** The classes of the substances in a medication name ("Augmentin" → penicillins). */
export function drugClassesOf(medicationName: string): string[] {
  const names = new Set<string>();
  for (const s of recognise(medicationName).substances)
    for (const c of CLASSES_OF_SUBSTANCE.get(s) ?? []) names.add(c.name);
  return [...names];
}

/**
 * Warnings for a prescribed drug against the patient's allergy list: "danger" when the drug (or its class)
 * is what the patient is allergic to, "caution" for cross-reactivity. One warning per substance and allergy
 * entry (the most severe), dangers first.
 */
export function allergyWarnings(medicationName: string, allergies: readonly string[]): AllergyWarning[] {
  const substances = recognise(medicationName).substances;
  if (substances.length === 0 || allergies.length === 0) return [];
  const warnings: AllergyWarning[] = [];
  for (const allergy of allergies) {
    const read = readAllergy(allergy);
    if (read.classes.size === 0 && read.substances.length === 0) continue;
    for (const substance of substances) {
      const w = warningFor(substance, read);
      if (w) warnings.push(w);
    }
  }
  return warnings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "danger" ? -1 : 1));
}

function warningFor(substance: string, allergy: ReadAllergy): AllergyWarning | null {
  const drug = capitalize(substance);
  const drugClasses = CLASSES_OF_SUBSTANCE.get(substance) ?? [];
  const make = (severity: AllergySeverity, drugClass: string, message: string): AllergyWarning => ({
    severity,
    drugClass,
    allergy: allergy.text,
    substance,
    message,
  });
  const allergic = `the patient is allergic to ${allergy.text}`;

  // The drug itself is on the allergy list.
  if (allergy.substances.includes(substance)) {
    const c = drugClasses[0];
    return c
      ? make("danger", c.name, `${drug} is ${c.noun}; ${allergic}`)
      : make("danger", substance, `${drug} is in this prescription; ${allergic}`);
  }
  // The allergy names the drug's class.
  for (const c of drugClasses) {
    if (allergy.classes.has(c.name)) return make("danger", c.name, `${drug} is ${c.noun}; ${allergic}`);
  }
  // The allergy names another member of the drug's class.
  let caution: AllergyWarning | null = null;
  for (const c of drugClasses) {
    const allergen = allergy.substances.find((s) => c.members.includes(s));
    if (!allergen) continue;
    if (c.memberSeverity === "danger") return make("danger", c.name, `${drug} is ${c.noun}; ${allergic}`);
    caution ??= make("caution", c.name, memberCautionMessage(c, substance, allergen, allergy.text));
  }
  if (caution) return caution;
  // Cross-reactivity between classes.
  const allergyClasses = new Set(allergy.classes);
  for (const s of allergy.substances) for (const c of CLASSES_OF_SUBSTANCE.get(s) ?? []) allergyClasses.add(c.name);
  for (const x of CROSS_REACTIVITY) {
    if (!allergyClasses.has(x.allergyClass)) continue;
    const viaClass = x.drugClass ? drugClasses.find((c) => c.name === x.drugClass) : undefined;
    const viaSubstance = x.substances?.includes(substance) ?? false;
    if (!viaClass && !viaSubstance) continue;
    const drugClass = viaClass ?? drugClasses[0];
    const message = x.message
      ? x.message.replace("{drug}", drug).replace("{allergy}", allergy.text)
      : `${drug} is ${drugClass?.noun ?? "related"}; cross-reactivity with the patient's allergy to ${allergy.text}${aside(allergy.text, x.allergyClass)} is possible`;
    return make("caution", drugClass?.name ?? substance, message);
  }
  return null;
}

function memberCautionMessage(c: DrugClass, substance: string, allergen: string, allergyText: string): string {
  const drug = capitalize(substance);
  const groupOf = (s: string) => Object.entries(c.groups ?? {}).find(([, members]) => members.includes(s))?.[0];
  const drugGroup = groupOf(substance);
  const allergenGroup = groupOf(allergen);
  if (drugGroup && allergenGroup && drugGroup !== allergenGroup) {
    return `${drug} is ${c.noun} (${drugGroup}); cross-reactivity with the patient's allergy to ${allergyText}${aside(allergyText, `${allergen}, a ${allergenGroup}`)} is less likely but possible`;
  }
  return `${drug} is ${c.noun}; cross-reactivity with the patient's allergy to ${allergyText}${aside(allergyText, allergen)} is possible`;
}

/**
 * What the allergy was read as, after it as written: " (penicillins)", or ", read as penicillins," when the
 * sender's text has its own parentheses ("PCN (hives)"); nothing when it already says exactly that.
 */
function aside(written: string, meaning: string): string {
  if (written.trim().toLowerCase() === meaning.toLowerCase()) return "";
  return written.includes("(") ? `, read as ${meaning},` : ` (${meaning})`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
