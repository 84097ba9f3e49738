// The federal controlled-substance table, shipped as data (nothing is fetched at run time). Facts from
// 21 CFR 1308.12-1308.15 and DEA's "Controlled Substances - Alphabetical Order" list (substance, schedule,
// narcotic or not); brand names from product labelling. It covers what a US retail pharmacy dispenses, not
// Schedule I or research chemicals. Where a combination product's schedule differs from its parent's
// (codeine with acetaminophen is III, codeine cough syrups are V), COMBINATION_RULES says so.

import type { Schedule } from "@/lib/drugs/schedule-names";
import type { DoseForm } from "@/lib/drugs/tokens";

export type { Schedule };

/** A brand (or written form) that contains the substance with others, or that fixes its dose form. */
export type ControlledProduct = { brands: readonly string[]; with?: readonly string[]; form?: DoseForm };

export type ControlledSubstance = {
  /** Canonical lower-case generic name. */
  substance: string;
  /** The schedule of the substance itself (a single-entity product). */
  schedule: Schedule;
  narcotic: boolean;
  /** Where the schedule is set, when more precise than the schedule's section. */
  cfr?: string;
  salts?: readonly string[];
  /** Single-entity brands. */
  brands?: readonly string[];
  /** Other spellings and abbreviations senders use. */
  aliases?: readonly string[];
  /** Combination brands and brands that fix the dose form. */
  products?: readonly ControlledProduct[];
  /** Said to the pharmacist after the schedule. */
  note?: string;
};

/**
 * A combination (or dose form) whose schedule differs from the substance's own. Rules are tried in order
 * for each controlled substance a name contains; the first that applies wins, else the table's schedule.
 * `with`: "any" means at least one other recognised ingredient that is not itself a narcotic; a list means
 * at least one of those ingredients. `form`: applies only when the name or strength states that form.
 * `schedule: "varies"` marks products whose status depends on the exact product: the answer is "unknown".
 */
export type CombinationRule = {
  substance: string;
  with?: "any" | readonly string[];
  form?: DoseForm;
  schedule: Schedule | "varies";
  narcotic: boolean;
  cfr: string;
  /** Words for the pharmacist: what this rule is about. */
  note: string;
};

export const SCHEDULE_SECTIONS: Readonly<Record<Schedule, string>> = {
  II: "21 CFR 1308.12",
  III: "21 CFR 1308.13",
  IV: "21 CFR 1308.14",
  V: "21 CFR 1308.15",
};

const RANKS: Readonly<Record<Schedule, number>> = { II: 2, III: 3, IV: 4, V: 5 };

/** Negative when `a` is stricter than `b` (II is the strictest schedule a pharmacy dispenses). */
export function compareSchedules(a: Schedule, b: Schedule): number {
  return RANKS[a] - RANKS[b];
}

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

export const CONTROLLED_SUBSTANCES: readonly ControlledSubstance[] = [
  // ── Schedule II opioids ─────────────────────────────────────────────────────────────────────────
  {
    substance: "oxycodone",
    schedule: "II",
    narcotic: true,
    salts: ["hydrochloride", "myristate", "terephthalate"],
    brands: ["OxyContin", "Roxicodone", "Oxaydo", "Xtampza", "RoxyBond", "Oxecta"],
    products: [
      {
        brands: [
          "Percocet",
          "Endocet",
          "Primlev",
          "Nalocet",
          "Prolate",
          "Roxicet",
          "Tylox",
          "Xartemis",
          "Oxycet",
          "Magnacet",
          "Perloxx",
        ],
        with: ["acetaminophen"],
      },
      { brands: ["Percodan", "Endodan"], with: ["aspirin"] },
      { brands: ["Combunox"], with: ["ibuprofen"] },
      { brands: ["Targiniq"], with: ["naloxone"] },
      { brands: ["Troxyca"], with: ["naltrexone"] },
    ],
  },
  {
    substance: "hydrocodone",
    schedule: "II",
    narcotic: true,
    salts: ["bitartrate", "polistirex"],
    brands: ["Hysingla", "Zohydro", "Vantrela"],
    products: [
      {
        brands: [
          "Norco",
          "Vicodin",
          "Lortab",
          "Lorcet",
          "Xodol",
          "Verdrocet",
          "Hycet",
          "Zamicet",
          "Zydone",
          "Maxidone",
          "Co-Gesic",
          "Anexsia",
        ],
        with: ["acetaminophen"],
      },
      { brands: ["Vicoprofen", "Reprexain", "Ibudone", "Xylon"], with: ["ibuprofen"] },
      { brands: ["Hycodan", "Hydromet", "Tussigon"], with: ["homatropine"] },
      { brands: ["Tussionex", "TussiCaps"], with: ["chlorpheniramine"] },
      { brands: ["Obredon"], with: ["guaifenesin"] },
    ],
  },
  {
    substance: "benzhydrocodone",
    schedule: "II",
    narcotic: true,
    products: [{ brands: ["Apadaz"], with: ["acetaminophen"] }],
  },
  {
    substance: "morphine",
    schedule: "II",
    narcotic: true,
    salts: ["sulfate"],
    brands: [
      "MS Contin",
      "Kadian",
      "Arymo",
      "MorphaBond",
      "Roxanol",
      "Infumorph",
      "Duramorph",
      "Mitigo",
      "Avinza",
      "Oramorph",
    ],
    aliases: ["MSIR", "MS IR", "MSER"],
    products: [{ brands: ["Embeda"], with: ["naltrexone"] }],
  },
  {
    substance: "hydromorphone",
    schedule: "II",
    narcotic: true,
    salts: ["hydrochloride"],
    brands: ["Dilaudid", "Exalgo"],
  },
  { substance: "oxymorphone", schedule: "II", narcotic: true, salts: ["hydrochloride"], brands: ["Opana"] },
  {
    substance: "fentanyl",
    schedule: "II",
    narcotic: true,
    salts: ["citrate"],
    brands: ["Duragesic", "Actiq", "Fentora", "Subsys", "Abstral", "Lazanda", "Onsolis", "Ionsys", "Sublimaze"],
  },
  { substance: "sufentanil", schedule: "II", narcotic: true, salts: ["citrate"], brands: ["Dsuvia", "Sufenta"] },
  { substance: "alfentanil", schedule: "II", narcotic: true, brands: ["Alfenta"] },
  { substance: "remifentanil", schedule: "II", narcotic: true, brands: ["Ultiva"] },
  {
    substance: "methadone",
    schedule: "II",
    narcotic: true,
    salts: ["hydrochloride"],
    brands: ["Dolophine", "Methadose", "Diskets"],
  },
  {
    substance: "meperidine",
    schedule: "II",
    narcotic: true,
    salts: ["hydrochloride"],
    brands: ["Demerol", "Meperitab"],
    aliases: ["pethidine"],
  },
  { substance: "tapentadol", schedule: "II", narcotic: true, brands: ["Nucynta"] },
  { substance: "levorphanol", schedule: "II", narcotic: true, salts: ["tartrate"], brands: ["Levo-Dromoran"] },
  { substance: "oliceridine", schedule: "II", narcotic: true, brands: ["Olinvyk"] },
  {
    substance: "codeine",
    schedule: "II",
    narcotic: true,
    cfr: "21 CFR 1308.12(b)(1)",
    salts: ["sulfate", "phosphate"],
    aliases: ["cod"],
    products: [
      {
        brands: [
          "Tylenol with Codeine",
          "Tylenol w Codeine",
          "Tylenol 3",
          "Tylenol 4",
          "Tylenol No 3",
          "Tylenol No 4",
          "Capital and Codeine",
          "Capital with Codeine",
        ],
        with: ["acetaminophen"],
      },
      { brands: ["Fioricet with Codeine"], with: ["butalbital", "acetaminophen", "caffeine"] },
      { brands: ["Fiorinal with Codeine"], with: ["butalbital", "aspirin", "caffeine"] },
      { brands: ["Soma Compound with Codeine"], with: ["carisoprodol", "aspirin"] },
      { brands: ["Phenergan with Codeine"], with: ["promethazine"] },
      {
        brands: [
          "Robitussin AC",
          "Cheratussin AC",
          "Virtussin AC",
          "Guiatuss AC",
          "Mytussin AC",
          "Guaiatussin AC",
          "Tussin AC",
          "Guaifenesin AC",
        ],
        with: ["guaifenesin"],
      },
      {
        brands: ["Cheratussin DAC", "Virtussin DAC", "Mytussin DAC", "Nucofed"],
        with: ["guaifenesin", "pseudoephedrine"],
      },
      { brands: ["Tuxarin"], with: ["chlorpheniramine"], form: "solid" },
    ],
  },
  {
    substance: "dihydrocodeine",
    schedule: "II",
    narcotic: true,
    salts: ["bitartrate"],
    products: [
      { brands: ["Synalgos-DC", "Synalgos"], with: ["aspirin", "caffeine"] },
      { brands: ["Trezix", "Panlor"], with: ["acetaminophen", "caffeine"] },
    ],
  },
  {
    substance: "opium",
    schedule: "II",
    narcotic: true,
    aliases: ["opium tincture", "tincture of opium", "deodorized tincture of opium", "DTO", "laudanum"],
    products: [{ brands: ["B&O Supprettes", "belladonna and opium"], with: ["belladonna"] }],
  },
  {
    substance: "diphenoxylate",
    schedule: "II",
    narcotic: true,
    salts: ["hydrochloride"],
    products: [{ brands: ["Lomotil", "Lonox"], with: ["atropine"] }],
  },
  { substance: "cocaine", schedule: "II", narcotic: true, salts: ["hydrochloride"], brands: ["Goprelto", "Numbrino"] },

  // ── Schedule II stimulants, depressants and others ──────────────────────────────────────────────
  {
    substance: "amphetamine",
    schedule: "II",
    narcotic: false,
    salts: ["sulfate", "aspartate"],
    brands: ["Evekeo", "Adzenys", "Dyanavel"],
    aliases: ["amphetamine salts", "mixed amphetamine salts", "MAS"],
    products: [{ brands: ["Adderall", "Mydayis"], with: ["dextroamphetamine"] }],
  },
  {
    substance: "dextroamphetamine",
    schedule: "II",
    narcotic: false,
    salts: ["sulfate", "saccharate"],
    brands: ["Dexedrine", "Zenzedi", "ProCentra", "Xelstrym", "Dextrostat"],
    aliases: ["dexamphetamine", "d-amphetamine"],
  },
  {
    substance: "lisdexamfetamine",
    schedule: "II",
    narcotic: false,
    salts: ["dimesylate"],
    brands: ["Vyvanse"],
    aliases: ["lisdexamphetamine"],
  },
  { substance: "methamphetamine", schedule: "II", narcotic: false, salts: ["hydrochloride"], brands: ["Desoxyn"] },
  {
    substance: "methylphenidate",
    schedule: "II",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: [
      "Ritalin",
      "Concerta",
      "Metadate",
      "Methylin",
      "Daytrana",
      "QuilliChew",
      "Quillivant",
      "Cotempla",
      "Aptensio",
      "Jornay",
      "Relexxii",
      "Adhansia",
    ],
  },
  { substance: "dexmethylphenidate", schedule: "II", narcotic: false, salts: ["hydrochloride"], brands: ["Focalin"] },
  { substance: "nabilone", schedule: "II", narcotic: false, brands: ["Cesamet"] },
  { substance: "pentobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Nembutal"] },
  { substance: "secobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Seconal"] },
  { substance: "amobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Amytal"] },

  // ── Schedule III ────────────────────────────────────────────────────────────────────────────────
  {
    substance: "buprenorphine",
    schedule: "III",
    narcotic: true,
    salts: ["hydrochloride"],
    brands: ["Subutex", "Butrans", "Belbuca", "Sublocade", "Brixadi", "Buprenex", "Probuphine"],
    products: [{ brands: ["Suboxone", "Zubsolv", "Bunavail"], with: ["naloxone"] }],
  },
  {
    substance: "paregoric",
    schedule: "III",
    narcotic: true,
    cfr: "21 CFR 1308.13(e)",
    aliases: ["camphorated tincture of opium", "camphorated opium tincture"],
  },
  { substance: "ketamine", schedule: "III", narcotic: false, salts: ["hydrochloride"], brands: ["Ketalar"] },
  {
    substance: "esketamine",
    schedule: "III",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Spravato"],
    note: "an isomer of ketamine",
  },
  {
    substance: "testosterone",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(f)",
    salts: ["cypionate", "enanthate", "undecanoate", "propionate"],
    brands: [
      "AndroGel",
      "Androderm",
      "Testim",
      "Fortesta",
      "Axiron",
      "Vogelxo",
      "Natesto",
      "Testopel",
      "Xyosted",
      "Aveed",
      "Jatenzo",
      "Tlando",
      "Kyzatrex",
      "Depo-Testosterone",
      "Delatestryl",
      "Striant",
    ],
  },
  {
    substance: "methyltestosterone",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(f)",
    brands: ["Android", "Testred", "Methitest"],
    products: [{ brands: ["Covaryx", "EEMT", "Estratest"], with: ["esterified estrogens"] }],
  },
  {
    substance: "nandrolone",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(f)",
    salts: ["decanoate"],
    brands: ["Deca-Durabolin"],
  },
  { substance: "oxandrolone", schedule: "III", narcotic: false, cfr: "21 CFR 1308.13(f)", brands: ["Oxandrin"] },
  { substance: "oxymetholone", schedule: "III", narcotic: false, cfr: "21 CFR 1308.13(f)", brands: ["Anadrol"] },
  {
    substance: "fluoxymesterone",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(f)",
    brands: ["Androxy", "Halotestin"],
  },
  { substance: "stanozolol", schedule: "III", narcotic: false, cfr: "21 CFR 1308.13(f)", brands: ["Winstrol"] },
  {
    substance: "butalbital",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(c)",
    products: [
      { brands: ["Fioricet", "Esgic", "Zebutal", "Phrenilin Forte"], with: ["acetaminophen", "caffeine"] },
      { brands: ["Bupap", "Allzital", "Tencon", "Phrenilin", "Marten-Tab"], with: ["acetaminophen"] },
      { brands: ["Fiorinal"], with: ["aspirin", "caffeine"] },
    ],
  },
  {
    substance: "butabarbital",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(c)",
    salts: ["sodium"],
    brands: ["Butisol"],
  },
  {
    substance: "benzphetamine",
    schedule: "III",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Didrex", "Regimex"],
  },
  { substance: "phendimetrazine", schedule: "III", narcotic: false, salts: ["tartrate"], brands: ["Bontril"] },
  {
    substance: "sodium oxybate",
    schedule: "III",
    narcotic: false,
    brands: ["Xyrem", "Xywav", "Lumryz"],
    aliases: ["oxybate", "oxybates", "calcium magnesium potassium and sodium oxybates"],
    note: "sodium oxybate in an FDA-approved product",
  },
  { substance: "perampanel", schedule: "III", narcotic: false, brands: ["Fycompa"] },
  {
    substance: "dronabinol",
    schedule: "III",
    narcotic: false,
    cfr: "21 CFR 1308.13(g)",
    products: [
      { brands: ["Marinol"], form: "solid" },
      { brands: ["Syndros"], form: "liquid" },
    ],
  },

  // ── Schedule IV ─────────────────────────────────────────────────────────────────────────────────
  { substance: "alprazolam", schedule: "IV", narcotic: false, brands: ["Xanax", "Niravam"] },
  { substance: "lorazepam", schedule: "IV", narcotic: false, brands: ["Ativan", "Loreev"] },
  { substance: "clonazepam", schedule: "IV", narcotic: false, brands: ["Klonopin"] },
  { substance: "diazepam", schedule: "IV", narcotic: false, brands: ["Valium", "Diastat", "Valtoco", "Libervant"] },
  { substance: "temazepam", schedule: "IV", narcotic: false, brands: ["Restoril"] },
  { substance: "triazolam", schedule: "IV", narcotic: false, brands: ["Halcion"] },
  {
    substance: "chlordiazepoxide",
    schedule: "IV",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Librium"],
    products: [
      { brands: ["Librax"], with: ["clidinium"] },
      { brands: ["Limbitrol"], with: ["amitriptyline"] },
    ],
  },
  { substance: "clorazepate", schedule: "IV", narcotic: false, salts: ["dipotassium"], brands: ["Tranxene"] },
  { substance: "oxazepam", schedule: "IV", narcotic: false, brands: ["Serax"] },
  { substance: "estazolam", schedule: "IV", narcotic: false, brands: ["ProSom"] },
  { substance: "flurazepam", schedule: "IV", narcotic: false, salts: ["hydrochloride"], brands: ["Dalmane"] },
  {
    substance: "midazolam",
    schedule: "IV",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Nayzilam", "Seizalam", "Versed"],
  },
  { substance: "clobazam", schedule: "IV", narcotic: false, brands: ["Onfi", "Sympazan"] },
  { substance: "quazepam", schedule: "IV", narcotic: false, brands: ["Doral"] },
  { substance: "remimazolam", schedule: "IV", narcotic: false, salts: ["besylate"], brands: ["Byfavo"] },
  {
    substance: "zolpidem",
    schedule: "IV",
    narcotic: false,
    salts: ["tartrate"],
    brands: ["Ambien", "Edluar", "Intermezzo", "Zolpimist"],
  },
  { substance: "zaleplon", schedule: "IV", narcotic: false, brands: ["Sonata"] },
  { substance: "eszopiclone", schedule: "IV", narcotic: false, brands: ["Lunesta"] },
  { substance: "suvorexant", schedule: "IV", narcotic: false, brands: ["Belsomra"] },
  { substance: "lemborexant", schedule: "IV", narcotic: false, brands: ["Dayvigo"] },
  { substance: "daridorexant", schedule: "IV", narcotic: false, brands: ["Quviviq"] },
  {
    substance: "carisoprodol",
    schedule: "IV",
    narcotic: false,
    brands: ["Soma", "Vanadom"],
    products: [{ brands: ["Soma Compound"], with: ["aspirin"] }],
  },
  {
    substance: "phenobarbital",
    schedule: "IV",
    narcotic: false,
    salts: ["sodium"],
    brands: ["Luminal", "Sezaby"],
    aliases: ["phenobarb", "phenobarbitone"],
    products: [{ brands: ["Donnatal", "Phenohytro"], with: ["hyoscyamine", "atropine", "scopolamine"] }],
  },
  { substance: "meprobamate", schedule: "IV", narcotic: false, brands: ["Miltown", "Equanil"] },
  { substance: "chloral hydrate", schedule: "IV", narcotic: false, aliases: ["chloral"] },
  {
    substance: "tramadol",
    schedule: "IV",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Ultram", "ConZip", "Qdolo", "Ryzolt"],
    products: [
      { brands: ["Ultracet"], with: ["acetaminophen"] },
      { brands: ["Seglentis"], with: ["celecoxib"] },
    ],
  },
  { substance: "butorphanol", schedule: "IV", narcotic: false, salts: ["tartrate"], brands: ["Stadol"] },
  {
    substance: "pentazocine",
    schedule: "IV",
    narcotic: false,
    brands: ["Talwin"],
    products: [{ brands: ["Talwin NX"], with: ["naloxone"] }],
  },
  { substance: "eluxadoline", schedule: "IV", narcotic: false, brands: ["Viberzi"] },
  {
    substance: "phentermine",
    schedule: "IV",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Adipex", "Adipex-P", "Lomaira", "Suprenza"],
    products: [{ brands: ["Qsymia"], with: ["topiramate"] }],
  },
  {
    substance: "diethylpropion",
    schedule: "IV",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: ["Tenuate"],
    aliases: ["amfepramone"],
  },
  { substance: "modafinil", schedule: "IV", narcotic: false, brands: ["Provigil"] },
  { substance: "armodafinil", schedule: "IV", narcotic: false, brands: ["Nuvigil"] },
  { substance: "solriamfetol", schedule: "IV", narcotic: false, brands: ["Sunosi"] },
  { substance: "zuranolone", schedule: "IV", narcotic: false, brands: ["Zurzuvae"] },
  { substance: "brexanolone", schedule: "IV", narcotic: false, brands: ["Zulresso"] },
  {
    substance: "serdexmethylphenidate",
    schedule: "IV",
    narcotic: false,
    products: [{ brands: ["Azstarys"], with: ["dexmethylphenidate"] }],
  },
  {
    substance: "difenoxin",
    schedule: "IV",
    narcotic: true,
    products: [{ brands: ["Motofen"], with: ["atropine"] }],
    note: "difenoxin is dispensed only with atropine (Motofen)",
  },

  // ── Schedule V ──────────────────────────────────────────────────────────────────────────────────
  { substance: "pregabalin", schedule: "V", narcotic: false, brands: ["Lyrica"] },
  { substance: "lacosamide", schedule: "V", narcotic: false, brands: ["Vimpat", "Motpoly"] },
  { substance: "brivaracetam", schedule: "V", narcotic: false, brands: ["Briviact"] },
  { substance: "cenobamate", schedule: "V", narcotic: false, brands: ["Xcopri"] },
  { substance: "lasmiditan", schedule: "V", narcotic: false, brands: ["Reyvow"] },
  { substance: "ezogabine", schedule: "V", narcotic: false, brands: ["Potiga"], aliases: ["retigabine"] },
  { substance: "ganaxolone", schedule: "V", narcotic: false, brands: ["Ztalmy"] },
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
