// The shape of the controlled-substance table's entries and of its combination rules, apart from the data
// so that each schedule's file and the rules share one definition.
import type { Schedule } from "@/lib/drugs/schedule-names";
import type { DoseForm } from "@/lib/drugs/tokens";

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
