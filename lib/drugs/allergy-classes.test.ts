import { describe, expect, it } from "vitest";
import { allergyClassesOf, allergyWarnings, drugClassesOf, substancesOf } from "@/lib/drugs";

const severities = (drug: string, allergies: string[]) => allergyWarnings(drug, allergies).map((w) => w.severity);

describe("allergyWarnings: same class is danger", () => {
  it("says so in the pharmacist's words", () => {
    expect(allergyWarnings("Amoxicillin 500 mg capsule", ["Penicillin"])).toEqual([
      {
        severity: "danger",
        drugClass: "penicillins",
        allergy: "Penicillin",
        substance: "amoxicillin",
        message: "Amoxicillin is a penicillin; the patient is allergic to Penicillin",
      },
    ]);
  });

  it.each([
    ["Amoxicillin 500 mg", "PCN"],
    ["Amoxicillin 500 mg", "Penicillins"],
    ["Amoxicillin 500 mg", "penicillin G"],
    ["Amoxicillin 500 mg", "Amoxil"],
    ["Augmentin 875", "PCN - hives"],
    ["Amoxicillin-Pot Clavulanate 875-125", "penicillin"],
    ["Dicloxacillin 500 mg", "Penicillin VK"],
    ["Bactrim DS", "sulfa"],
    ["Sulfamethoxazole-Trimethoprim 800-160", "Sulfa drugs"],
    ["SMX-TMP", "Sulfonamides"],
    ["Sulfasalazine 500 mg", "SMX"],
    ["Cephalexin 500 mg", "Keflex"],
    ["Cefdinir 300 mg", "cephalosporins"],
    ["Ibuprofen 800 mg", "NSAIDs"],
    ["Aspirin 81 mg", "ASA"],
    ["Aspirin 81 mg", "Aspirin"],
    ["Oxycodone 5 mg", "opiates"],
    ["Percocet 5/325", "Narcotics"],
    ["Tylenol with Codeine #3", "Codeine"],
    ["Azithromycin 250 mg", "erythromycin"],
    ["Levofloxacin 500 mg", "Cipro"],
    ["Doxycycline hyclate 100 mg", "tetracycline"],
    ["Lisinopril 10 mg", "ACE inhibitors"],
    ["Enalapril 5 mg", "lisinopril"],
    ["Carbamazepine 200 mg", "phenytoin"],
    ["Meropenem", "carbapenems"],
    ["Clindamycin 300 mg", "Cleocin"],
    ["Metformin 500 mg", "metformin"],
  ])("%s with allergy %s", (drug, allergy) => {
    const warnings = allergyWarnings(drug, [allergy]);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]!.severity).toBe("danger");
    expect(warnings[0]!.allergy).toBe(allergy);
  });

  it("warns when the drug itself is on the list, even outside any class", () => {
    expect(allergyWarnings("Metformin ER 500 mg", ["Metformin"])).toEqual([
      {
        severity: "danger",
        drugClass: "metformin",
        allergy: "Metformin",
        substance: "metformin",
        message: "Metformin is in this prescription; the patient is allergic to Metformin",
      },
    ]);
  });
});

describe("allergyWarnings: cross-reactivity is caution", () => {
  it("cephalosporin with a penicillin allergy", () => {
    expect(allergyWarnings("Cephalexin 500 mg", ["Penicillins"])).toEqual([
      {
        severity: "caution",
        drugClass: "cephalosporins",
        allergy: "Penicillins",
        substance: "cephalexin",
        message:
          "Cephalexin is a cephalosporin; cross-reactivity with the patient's allergy to Penicillins is possible",
      },
    ]);
    expect(allergyWarnings("Cephalexin 500 mg", ["PCN"])[0]!.message).toBe(
      "Cephalexin is a cephalosporin; cross-reactivity with the patient's allergy to PCN (penicillins) is possible",
    );
  });

  it.each([
    ["Cefdinir 300 mg", "Amoxicillin"],
    ["Ertapenem 1 g", "penicillin"],
    ["Amoxicillin 500 mg", "Keflex"],
    ["Ibuprofen 800 mg", "ASA"],
    ["Naproxen 500 mg", "aspirin"],
    ["Celecoxib 200 mg", "Aspirin"],
    ["Aspirin 81 mg", "NSAIDs"],
    ["Aspirin 325 mg", "ibuprofen"],
    ["Naproxen 500 mg", "Motrin"],
    ["Oxycodone 5 mg", "Codeine"],
    ["Hydromorphone 2 mg", "morphine"],
    ["Fentanyl 25 mcg/hr patch", "Codeine"],
    ["Tramadol 50 mg", "morphine"],
    ["Losartan 50 mg", "lisinopril"],
    ["Celecoxib 200 mg", "sulfa"],
    ["Cefuroxime 500 mg", "cephalexin"],
    ["Lorazepam 1 mg", "Xanax"],
  ])("%s with allergy %s", (drug, allergy) => {
    expect(severities(drug, [allergy])).toEqual(["caution"]);
  });

  it("keeps the sender's own parentheses readable", () => {
    expect(allergyWarnings("Cefazolin 1 g", ["PCN (hives)"])[0]!.message).toBe(
      "Cefazolin is a cephalosporin; cross-reactivity with the patient's allergy to PCN (hives), read as penicillins, is possible",
    );
    expect(allergyWarnings("Ketorolac 10 mg", ["Excedrin"]).map((w) => w.severity)).toEqual(["caution"]);
  });

  it("words another opioid group as less likely", () => {
    const [w] = allergyWarnings("Fentanyl 25 mcg/hr patch", ["Codeine"]);
    expect(w!.message).toBe(
      "Fentanyl is an opioid (phenylpiperidine); cross-reactivity with the patient's allergy to Codeine (codeine, a phenanthrene) is less likely but possible",
    );
    expect(allergyWarnings("Oxycodone 5 mg", ["Codeine"])[0]!.message).toBe(
      "Oxycodone is an opioid; cross-reactivity with the patient's allergy to Codeine is possible",
    );
  });

  it("explains the celecoxib label contraindication", () => {
    expect(allergyWarnings("Celebrex 200 mg", ["Sulfa"])[0]!.message).toBe(
      "Celecoxib is a sulfonamide whose label lists sulfonamide allergy as a contraindication; the patient is allergic to Sulfa",
    );
  });
});

describe("allergyWarnings: no warning", () => {
  it.each([
    ["Atorvastatin 40 mg", ["Penicillin"]],
    ["Amoxicillin 500 mg", ["peanuts", "latex"]],
    ["Oxycodone 5 mg", ["peanuts", "latex", "shellfish", "iodine", "bee stings", "NKDA"]],
    ["Glipizide 5 mg", ["sulfa"]],
    ["Hydrochlorothiazide 25 mg", ["Sulfa drugs"]],
    ["Furosemide 40 mg", ["sulfonamides"]],
    ["Acetazolamide 250 mg", ["sulfa"]],
    ["Levothyroxine 50 mcg", ["sulfites"]],
    ["Azithromycin 250 mg", ["Penicillin", "Sulfa"]],
    ["Acetaminophen 500 mg", ["Codeine"]],
    ["Zyxoflam 10 mg", ["Penicillin"]],
    ["Amoxicillin 500 mg", []],
    ["Morphine sulfate 15 mg", ["sulfa"]],
    ["Amoxicillin 500 mg", ["Epi Pen"]],
    ["Levetiracetam 500 mg", ["Vancomycin (red man)", "Contrast dye", "No Known Drug Allergies"]],
  ] as const)("%s with %j", (drug, allergies) => {
    expect(allergyWarnings(drug, allergies)).toEqual([]);
  });
});

describe("allergyWarnings: several allergies and ingredients", () => {
  it("reports each allergy once per substance, dangers first", () => {
    const warnings = allergyWarnings("Percocet 5/325", ["latex", "Codeine", "opiates"]);
    expect(warnings.map((w) => [w.severity, w.allergy, w.substance])).toEqual([
      ["danger", "opiates", "oxycodone"],
      ["caution", "Codeine", "oxycodone"],
    ]);
  });

  it("checks every ingredient of a combination", () => {
    const warnings = allergyWarnings("Bactrim DS", ["Trimethoprim", "sulfa"]);
    expect(warnings.map((w) => w.substance).sort()).toEqual(["sulfamethoxazole", "trimethoprim"]);
    expect(warnings.every((w) => w.severity === "danger")).toBe(true);
  });
});

describe("allergyClassesOf", () => {
  it.each([
    ["PCN", ["penicillins"]],
    ["Penicillins", ["penicillins"]],
    ["penicillin G", ["penicillins"]],
    ["Amoxil", ["penicillins"]],
    ["sulfa", ["sulfonamide antibiotics"]],
    ["Sulfa drugs", ["sulfonamide antibiotics"]],
    ["SMX", ["sulfonamide antibiotics"]],
    ["Bactrim", ["sulfonamide antibiotics"]],
    ["ASA", ["salicylates"]],
    ["Aspirin", ["salicylates"]],
    ["NSAIDs", ["NSAIDs"]],
    ["Codeine", ["opioids"]],
    ["morphine", ["opioids"]],
    ["Keflex", ["cephalosporins"]],
    ["cephalosporins", ["cephalosporins"]],
    ["beta-lactams", ["penicillins", "cephalosporins", "carbapenems"]],
    ["latex", []],
    ["peanuts", []],
    ["Shellfish", []],
    ["", []],
  ])("%s → %j", (allergy, classes) => {
    expect(allergyClassesOf(allergy)).toEqual(classes);
  });
});

describe("drugClassesOf and substancesOf", () => {
  it("finds the classes of each ingredient", () => {
    expect(drugClassesOf("Augmentin 875")).toEqual(["penicillins"]);
    expect(drugClassesOf("Bactrim DS")).toEqual(["sulfonamide antibiotics"]);
    expect(drugClassesOf("Vicoprofen")).toEqual(["opioids", "NSAIDs"]);
    expect(drugClassesOf("Atorvastatin 10 mg")).toEqual(["statins"]);
    expect(drugClassesOf("Metformin")).toEqual([]);
  });

  it("lists canonical substances for duplicate-therapy checks", () => {
    expect(substancesOf("Hydrocodone Bitartrate and Acetaminophen 10-325")).toEqual(["hydrocodone", "acetaminophen"]);
    expect(substancesOf("Norco")).toEqual(["hydrocodone", "acetaminophen"]);
    expect(substancesOf("Tylenol Extra Strength")).toEqual(["acetaminophen"]);
    expect(substancesOf("Zestoretic 20-25")).toEqual(["lisinopril", "hydrochlorothiazide"]);
    expect(substancesOf("Lisinopril/HCTZ")).toEqual(["lisinopril", "hydrochlorothiazide"]);
  });
});
