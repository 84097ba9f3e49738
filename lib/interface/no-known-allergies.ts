// "No known allergies" as senders write it in the allergy list: NKDA, NKA, "none", "No known drug allergies".
// Under the NO_KNOWN_ALLERGIES descriptor these entries agree with it, so the intake accepts them (the request
// is stored as sent) and every screen and hand-off reads them as no allergy at all. Only the usual spellings of
// "no known allergies" count: "N/A" (not available? not applicable?) and "NKFA" (food only) do not.
// Client-safe: the review screen, the queue and the intake share it.
import type { AllergyDetails } from "@/lib/interface/wire";

/** How the screens say it. */
export const NO_KNOWN_ALLERGIES_TEXT = "No known allergies";

const SPELLINGS: ReadonlySet<string> = new Set([
  "nkda",
  "nka",
  "nkma",
  "none",
  "none known",
  "no known allergies",
  "no known allergy",
  "no known drug allergies",
  "no known drug allergy",
  "no known medication allergies",
  "no known medication allergy",
  "no known medicine allergies",
  "no allergies",
  "no drug allergies",
  "no known allergies to medications",
]);

/** "NKDA", "N.K.D.A.", " None ", "No Known Drug Allergies": an entry that says the patient has none. */
export function isNoKnownAllergiesEntry(entry: string): boolean {
  const words = entry
    .toLowerCase()
    .replace(/[.\-_,;:!()]/g, (c) => (c === "." ? "" : " "))
    .replace(/\s+/g, " ")
    .trim();
  return SPELLINGS.has(words);
}

/** The allergies a pharmacist must see: none under NO_KNOWN_ALLERGIES (whatever spelling of "none" was sent). */
export function listedAllergies(details: AllergyDetails): readonly string[] {
  return details.allergiesDescriptor === "NO_KNOWN_ALLERGIES" ? [] : details.allergies;
}
