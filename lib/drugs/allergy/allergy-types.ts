// The shapes of the allergy tables (drug classes, cross-reactivity) and of the warnings read from them.

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
