// The key that says two medication names are the same therapy, for the duplicate-therapy warning: the canonical
// active substances the tables recognise, sorted and joined with "+" ("Zestril 10 mg" and "Lisinopril 10 mg
// tablet" → "lisinopril"; "Percocet" → "acetaminophen+oxycodone"). A name the tables do not know falls back
// to its words that are not strengths, units, salts or forms ("Zyxoflam 20 mg tablet" → "?zyxoflam"), so the
// same unknown generic in another strength or form still matches; a name with no such word has no key.
import { recognise } from "@/lib/drugs/lexicon";

export function substanceKeyOf(medicationName: string): string | null {
  const found = recognise(medicationName);
  if (found.substances.length > 0) return [...found.substances].sort().join("+");
  return found.unknownWords.length > 0 ? `?${found.unknownWords.join(" ")}` : null;
}
