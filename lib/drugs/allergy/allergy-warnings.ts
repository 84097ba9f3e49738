// allergyWarnings: a prescribed drug against the patient's allergy list, danger for the drug or its class,
// caution for cross-reactivity, with the words the pharmacist reads.
import type { AllergySeverity, AllergyWarning, DrugClass } from "@/lib/drugs/allergy/allergy-types";
import { CROSS_REACTIVITY } from "@/lib/drugs/allergy/cross-reactivity";
import { CLASSES_OF_SUBSTANCE } from "@/lib/drugs/allergy/drug-classes";
import { readAllergy, type ReadAllergy } from "@/lib/drugs/allergy/read-allergy";
import { recognise } from "@/lib/drugs/lexicon";

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
