// A prescription's controlled-substance schedule, from the drug itself (the interface carries none, and a
// prescriber's DEA number says nothing about the drug). Name matching only: no NDC directory with DEA
// schedules ships with this service (no free offline copy is packaged for npm), so a sent NDC is noted as
// not checked. A drug the tables do not know is "unknown", never "not controlled"; a store's state
// schedules apply on top, and the stricter schedule wins.
import {
  COMBINATION_RULES,
  SCHEDULE_SECTIONS,
  compareSchedules,
  type CombinationRule,
  type Schedule,
} from "@/lib/drugs/controlled-substances";
import { CONTROLLED_BY_SUBSTANCE, DRUG_INDEX, recognise, type Recognition } from "@/lib/drugs/lexicon";
import { containsPhrase, scanPhrases, tokenize } from "@/lib/drugs/tokens";

export type { Schedule } from "@/lib/drugs/controlled-substances";

/** A substance a store's state schedules beyond the federal table (gabapentin: V in Kentucky). */
export type ExtraSchedule = { substance: string; schedule: Schedule };

export type ScheduleMatch = {
  status: "controlled" | "not-controlled" | "unknown";
  schedule: Schedule | null;
  /** The controlled substance that set the schedule; for a non-controlled drug its substances joined by "/". */
  substance: string | null;
  narcotic: boolean;
  source: "federal" | "state" | "ndc" | null;
  /** One sentence for the pharmacist: what matched and why this schedule. */
  basis: string;
  /**
   * An NDC was sent but not looked up (no offline NDC directory ships with this service): the match is by name
   * only. Said once, where the screen shows the schedule (NDC_NOT_CHECKED), not in every sentence of `basis`.
   */
  byNameOnly?: boolean;
};

export type ScheduleInput = {
  medicationName: string;
  drugStrength?: string | null;
  prescribedNDC?: string | null;
  dispensedNDC?: string | null;
};

export type ScheduleOptions = {
  extraSchedules?: readonly ExtraSchedule[];
  /** How to name the state in `basis` ("Kentucky"); "this store's state" when absent. */
  stateLabel?: string;
};

/** Said once of a match where an NDC was sent, since none can be looked up offline. */
export const NDC_NOT_CHECKED =
  "Found by the drug's name: NDCs are not looked up here (no NDC directory ships with this service).";

/** Substances whose non-controlled status deserves a word. */
const NOT_CONTROLLED_NOTES: Readonly<Record<string, string>> = {
  gabapentin: "several states schedule it as V: see this store's state schedules",
  cannabidiol: "FDA-approved cannabidiol (Epidiolex) was removed from the schedules in 2020",
  pseudoephedrine: "it is a List I chemical with federal sales limits, not a scheduled drug",
};

const RULES_BY_SUBSTANCE: ReadonlyMap<string, readonly CombinationRule[]> = groupRules(COMBINATION_RULES);

/** What one controlled ingredient of a name comes to, federally. */
type Verdict = {
  substance: string;
  schedule: Schedule | "varies";
  narcotic: boolean;
  cfr: string;
  note: string | null;
  companions: readonly string[];
};

export function scheduleOf(rx: ScheduleInput, opts: ScheduleOptions = {}): ScheduleMatch {
  const rec = recognise(rx.medicationName, rx.drugStrength);
  const state = stateMatches(rec, opts.extraSchedules ?? []);
  const unplaced = rec.unknownWords.filter((w) => !state.words.has(w));
  const federal = federalMatch(rec, unplaced, rx.medicationName);
  const strictestState = state.matches.reduce<StateMatch | null>(
    (best, m) => (best === null || compareSchedules(m.schedule, best.schedule) < 0 ? m : best),
    null,
  );
  const stateName = opts.stateLabel?.trim() || "this store's state";

  let match = federal;
  if (strictestState) {
    const s = strictestState;
    if (federal.status === "controlled" && federal.schedule && compareSchedules(s.schedule, federal.schedule) >= 0) {
      match = federal;
    } else if (federal.status === "controlled" && federal.schedule) {
      match = {
        ...federal,
        schedule: s.schedule,
        substance: s.substance,
        source: "state",
        basis: `${trimStop(federal.basis)}; ${stateName} schedules ${s.substance} as Schedule ${s.schedule}, which is stricter and applies.`,
      };
    } else {
      const name = capitalize(s.substance);
      const federalWords =
        federal.status === "not-controlled"
          ? `${name} is not federally controlled`
          : federal.substance === s.substance
            ? `${name}'s federal status depends on the exact product`
            : rec.substances.includes(s.substance)
              ? `${name} is not federally controlled (${quoteList(unplaced)} not recognised)`
              : `${name} is not in the federal table`;
      match = {
        status: "controlled",
        schedule: s.schedule,
        substance: s.substance,
        narcotic: false,
        source: "state",
        basis: `${federalWords}, but ${stateName} schedules it as Schedule ${s.schedule}.`,
      };
    }
  }
  if (rx.prescribedNDC || rx.dispensedNDC) match = { ...match, byNameOnly: true };
  return match;
}

function federalMatch(rec: Recognition, unplaced: readonly string[], name: string): ScheduleMatch {
  const verdicts = rec.substances.flatMap((s) => {
    const v = verdictOf(s, rec);
    return v ? [v] : [];
  });
  const definite = verdicts.filter((v): v is Verdict & { schedule: Schedule } => v.schedule !== "varies");
  const unplacedNote = unplaced.length ? ` (${quoteList(unplaced)} not recognised)` : "";

  if (definite.length) {
    const chosen = definite.reduce((best, v) => {
      const order = compareSchedules(v.schedule, best.schedule);
      return order < 0 || (order === 0 && v.narcotic && !best.narcotic) ? v : best;
    });
    const brand = brandOf(rec, chosen.substance);
    const withPart = chosen.companions.length ? ` with ${joinWords(chosen.companions)}` : "";
    const notePart = chosen.note ? `; ${chosen.note}` : "";
    return {
      status: "controlled",
      schedule: chosen.schedule,
      substance: chosen.substance,
      narcotic: definite.some((v) => v.narcotic),
      source: "federal",
      basis: `Matched “${chosen.substance}”${withPart}${brand}${unplacedNote} in the federal table: Schedule ${chosen.schedule} (${chosen.cfr})${notePart}.`,
    };
  }

  const varies = verdicts.find((v) => v.schedule === "varies");
  if (varies) {
    return {
      status: "unknown",
      schedule: null,
      substance: varies.substance,
      narcotic: varies.narcotic,
      source: null,
      basis: `Matched “${varies.substance}” with ${joinWords(varies.companions)}${brandOf(rec, varies.substance)}: ${varies.note} (${varies.cfr}); determine the schedule from the product's label.`,
    };
  }

  if (rec.substances.length && unplaced.length === 0) {
    const brand = rec.terms.length === 1 && rec.terms[0]!.kind === "brand" ? rec.terms[0]!.label : null;
    const names = joinWords(rec.substances);
    const subject = brand ? `${brand} (${names})` : capitalize(names);
    const notes = rec.substances.flatMap((s) => (NOT_CONTROLLED_NOTES[s] ? [NOT_CONTROLLED_NOTES[s]] : []));
    const notePart = notes.length ? `; ${notes.join("; ")}` : "";
    const verb =
      !brand && rec.substances.length > 1
        ? "are not federally controlled substances"
        : "is not a federally controlled substance";
    return {
      status: "not-controlled",
      schedule: null,
      substance: rec.substances.join("/"),
      narcotic: false,
      source: "federal",
      basis: `${subject} ${verb}${notePart}.`,
    };
  }

  if (rec.substances.length) {
    return {
      status: "unknown",
      schedule: null,
      substance: null,
      narcotic: false,
      source: null,
      basis: `“${name.trim()}” was only partly recognised (${joinWords(rec.substances)}; ${quoteList(unplaced)} not found in the controlled-substance table or the list of known non-controlled drugs): determine the schedule yourself.`,
    };
  }
  return {
    status: "unknown",
    schedule: null,
    substance: null,
    narcotic: false,
    source: null,
    basis: `“${name.trim()}” was not found in the controlled-substance table or the list of known non-controlled drugs: determine the schedule yourself.`,
  };
}

/** The federal verdict on one recognised substance, or null when it is not controlled. */
function verdictOf(substance: string, rec: Recognition): Verdict | null {
  const entry = CONTROLLED_BY_SUBSTANCE.get(substance);
  if (!entry) return null;
  const others = rec.substances.filter((s) => s !== substance);
  const nonNarcotic = others.filter((s) => !CONTROLLED_BY_SUBSTANCE.get(s)?.narcotic);
  for (const rule of RULES_BY_SUBSTANCE.get(substance) ?? []) {
    if (rule.form && rule.form !== rec.form) continue;
    const companions =
      rule.with === undefined ? [] : rule.with === "any" ? nonNarcotic : others.filter((s) => rule.with!.includes(s));
    if (rule.with !== undefined && companions.length === 0) continue;
    return {
      substance,
      schedule: rule.schedule,
      narcotic: rule.narcotic,
      cfr: rule.cfr,
      note: rule.note,
      companions: others,
    };
  }
  return {
    substance,
    schedule: entry.schedule,
    narcotic: entry.narcotic,
    cfr: entry.cfr ?? SCHEDULE_SECTIONS[entry.schedule],
    note: entry.note ?? null,
    companions: others,
  };
}

type StateMatch = { substance: string; schedule: Schedule };

/** A store's extra schedules, resolved once per configured list (the same list serves a whole queue). */
type ResolvedExtra = { schedule: Schedule; label: string; substances: readonly string[]; phrase: readonly string[] };
const resolvedCache = new WeakMap<readonly ExtraSchedule[], readonly ResolvedExtra[]>();

function resolveExtras(extras: readonly ExtraSchedule[]): readonly ResolvedExtra[] {
  const cached = resolvedCache.get(extras);
  if (cached) return cached;
  const resolved = extras.flatMap((e): ResolvedExtra[] => {
    const phrase = tokenize(e.substance);
    if (phrase.length === 0) return [];
    // A name the tables know ("gabapentin", "Neurontin") stands for its canonical substances; any other
    // name ("tianeptine") is looked for word by word in the medication name.
    const { hits, rest } = scanPhrases(phrase, DRUG_INDEX);
    const substances = rest.length === 0 ? hits.flatMap((h) => h.value.substances) : [];
    return [
      { schedule: e.schedule, label: substances.length === 1 ? substances[0]! : phrase.join(" "), substances, phrase },
    ];
  });
  resolvedCache.set(extras, resolved);
  return resolved;
}

function stateMatches(
  rec: Recognition,
  extras: readonly ExtraSchedule[],
): { matches: StateMatch[]; words: Set<string> } {
  const matches: StateMatch[] = [];
  const words = new Set<string>();
  if (extras.length === 0) return { matches, words };
  for (const e of resolveExtras(extras)) {
    const hit = e.substances.length
      ? e.substances.find((s) => rec.substances.includes(s))
      : containsPhrase(rec.tokens, e.phrase)
        ? e.label
        : undefined;
    if (hit === undefined) continue;
    matches.push({ substance: hit, schedule: e.schedule });
    for (const w of e.phrase) words.add(w);
  }
  return { matches, words };
}

/** " (brand Xanax)" when a brand named the substance. */
function brandOf(rec: Recognition, substance: string): string {
  const term = rec.terms.find((t) => t.kind === "brand" && t.substances.includes(substance));
  return term ? ` (brand ${term.label})` : "";
}

function groupRules(rules: readonly CombinationRule[]): Map<string, CombinationRule[]> {
  const map = new Map<string, CombinationRule[]>();
  for (const r of rules) map.set(r.substance, [...(map.get(r.substance) ?? []), r]);
  return map;
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function quoteList(words: readonly string[]): string {
  return joinWords(words.map((w) => `“${w}”`));
}

function trimStop(sentence: string): string {
  return sentence.endsWith(".") ? sentence.slice(0, -1) : sentence;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
