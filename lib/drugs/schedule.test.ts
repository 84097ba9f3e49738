import { describe, expect, it } from "vitest";
import { scheduleOf, substancesOf, type Schedule, type ScheduleMatch } from "@/lib/drugs";

type Expected = Schedule | "not-controlled" | "unknown";

/** What senders write, and what the schedule must come out as (federal table only). */
const CASES: readonly (readonly [name: string, expected: Expected, strength?: string])[] = [
  // Known non-controlled drugs, as written on real transfers.
  ["Amoxicillin 500 mg capsule", "not-controlled"],
  ["amoxicillin", "not-controlled"],
  ["Amoxicillin-Pot Clavulanate 875-125 MG Oral Tablet", "not-controlled"],
  ["Augmentin 875", "not-controlled"],
  ["Atorvastatin Calcium 40 mg tab", "not-controlled"],
  ["LIPITOR", "not-controlled"],
  ["Lisinopril 10 MG Oral Tablet", "not-controlled"],
  ["Gabapentin 300 mg capsule", "not-controlled"],
  ["Neurontin 600mg", "not-controlled"],
  ["Metformin HCl ER (OSM) 500mg", "not-controlled"],
  ["Levothyroxine Sodium 75 MCG", "not-controlled"],
  ["Amlodipine Besylate 5 mg", "not-controlled"],
  ["Omeprazole DR 20 mg capsule", "not-controlled"],
  ["Sertraline HCl 50mg", "not-controlled"],
  ["Cephalexin 500 mg", "not-controlled"],
  ["Cefdinir 300 mg", "not-controlled"],
  ["Sulfamethoxazole-Trimethoprim DS 800-160 mg", "not-controlled"],
  ["Bactrim DS", "not-controlled"],
  ["SMX-TMP 800/160", "not-controlled"],
  ["Ibuprofen 800 mg", "not-controlled"],
  ["Naproxen Sodium 550 mg", "not-controlled"],
  ["Meloxicam 15 mg", "not-controlled"],
  ["Celecoxib 200 mg", "not-controlled"],
  ["Aspirin 81 mg EC", "not-controlled"],
  ["Dextromethorphan HBr 30 mg/5 mL", "not-controlled"],
  ["Promethazine DM syrup", "not-controlled"],
  ["Hydroxyzine HCl 25 mg", "not-controlled"],
  ["Hydroxyzine Pamoate 50 mg capsule", "not-controlled"],
  ["Lisinopril-Hydrochlorothiazide 20-12.5 mg", "not-controlled"],
  ["Fluticasone Propionate 50 mcg/act nasal spray", "not-controlled"],
  ["Potassium Chloride ER 20 mEq", "not-controlled"],
  ["Epidiolex 100 mg/mL", "not-controlled"],
  ["Wakix 17.8 mg", "not-controlled"],
  ["Naloxone 4 mg nasal spray", "not-controlled"],
  ["Tylenol 325 mg", "not-controlled"],
  ["Atomoxetine 40 mg", "not-controlled"],
  // Schedule II.
  ["Oxycodone HCl 5 mg", "II"],
  ["OxyContin 20mg ER", "II"],
  ["Percocet 10/325", "II"],
  ["Oxycodone and Acetaminophen 5-325", "II"],
  ["Hydrocodone Bitartrate and Acetaminophen", "II"],
  ["hydrocodone/APAP 10-325", "II"],
  ["HYDROCODONE-ACETAMINOPHEN 7.5-325 MG", "II"],
  ["Norco 10-325", "II"],
  ["Hydrocodone-Ibuprofen 7.5-200", "II"],
  ["Morphine Sulfate ER 15 mg", "II"],
  ["MS Contin 30 mg", "II"],
  ["Hydromorphone 2 mg", "II"],
  ["Fentanyl 25 mcg/hr transdermal patch", "II"],
  ["Methadone HCl 10 mg", "II"],
  ["Tapentadol ER 50 mg", "II"],
  ["Codeine Sulfate 30 mg tablet", "II"],
  ["Methylphenidate ER 36 mg", "II"],
  ["Concerta 54 mg", "II"],
  ["Lisdexamfetamine dimesylate 30 mg", "II"],
  ["Vyvanse 40 mg capsule", "II"],
  ["Adderall XR 20 mg", "II"],
  ["Dextroamphetamine-Amphetamine ER 20 mg", "II"],
  ["Amphetamine salts 10 mg", "II"],
  ["Focalin XR 10 mg", "II"],
  ["Desoxyn 5 mg", "II"],
  ["Nabilone 1 mg", "II"],
  ["Syndros 5 mg/mL", "II"],
  ["Azstarys 52.3-10.4 mg", "II"],
  // Schedule III.
  ["Buprenorphine 8 mg SL tablet", "III"],
  ["Buprenorphine-Naloxone 8-2 mg SL film", "III"],
  ["buprenorphine/naloxone", "III"],
  ["Suboxone 8mg-2mg film", "III"],
  ["Testosterone Cypionate 200 mg/mL", "III"],
  ["AndroGel 1.62% gel", "III"],
  ["Acetaminophen-Codeine #3", "III"],
  ["Tylenol with Codeine #3", "III"],
  ["Tylenol #4", "III"],
  ["APAP/codeine 300-30", "III"],
  ["Butalbital-Aspirin-Caffeine 50-325-40", "III"],
  ["Fioricet with Codeine", "III"],
  ["Ketamine 50 mg/mL", "III"],
  ["Spravato 28 mg nasal spray", "III"],
  ["Marinol 2.5 mg", "III"],
  ["Dronabinol 5 mg capsule", "III"],
  ["Phendimetrazine 35 mg", "III"],
  ["Xyrem 500 mg/mL", "III"],
  ["Paregoric", "III"],
  // Schedule IV.
  ["Alprazolam 0.5 mg", "IV"],
  ["Xanax XR 1mg", "IV"],
  ["Lorazepam 1mg", "IV"],
  ["Clonazepam ODT 0.5 mg", "IV"],
  ["Diazepam 5 mg", "IV"],
  ["Temazepam 15 mg capsule", "IV"],
  ["Zolpidem Tartrate 10 mg", "IV"],
  ["Ambien CR 12.5 mg", "IV"],
  ["Eszopiclone 3 mg", "IV"],
  ["Belsomra 10 mg", "IV"],
  ["Tramadol HCl 50 mg", "IV"],
  ["Tramadol-Acetaminophen 37.5-325", "IV"],
  ["Carisoprodol 350 mg", "IV"],
  ["Soma 350", "IV"],
  ["Phenobarbital 32.4 mg", "IV"],
  ["Phentermine 37.5 mg", "IV"],
  ["Qsymia 7.5-46 mg", "IV"],
  ["Modafinil 200 mg", "IV"],
  ["Armodafinil 150 mg", "IV"],
  ["Sunosi 75 mg", "IV"],
  ["Butorphanol tartrate nasal spray", "IV"],
  ["Motofen", "IV"],
  // Schedule V.
  ["Pregabalin 75 mg", "V"],
  ["Lyrica CR 165 mg", "V"],
  ["Lacosamide 100 mg", "V"],
  ["Briviact 50 mg", "V"],
  ["Xcopri 100 mg", "V"],
  ["Reyvow 50 mg", "V"],
  ["codeine/guaifenesin", "V"],
  ["Guaifenesin-Codeine 100-10 mg/5 mL", "V"],
  ["guaifenesin-codeine", "V"],
  ["Promethazine-Codeine 6.25-10 mg/5 mL", "V"],
  ["Promethazine VC with codeine", "V"],
  ["Promethazine w/ Codeine syrup", "V"],
  ["Cheratussin AC", "V"],
  ["Acetaminophen-Codeine 120-12 mg/5 mL oral solution", "V"],
  ["Acetaminophen and codeine", "V", "120 mg-12 mg/5 mL"],
  ["Lomotil 2.5-0.025 mg", "V"],
  ["Diphenoxylate-Atropine 2.5-0.025 mg", "V"],
  // Unknown: not in either list, or a product-dependent exemption.
  ["Zyxoflam 10 mg", "unknown"],
  ["Amoxicillin Zyxoflam", "unknown"],
  ["Fioricet", "unknown"],
  ["Butalbital-APAP-Caffeine 50-325-40", "unknown"],
  ["Donnatal tablets", "unknown"],
  ["", "unknown"],
];

function expectedOf(m: ScheduleMatch): Expected {
  return m.status === "controlled" ? m.schedule! : m.status;
}

describe("scheduleOf: federal table", () => {
  const rows = CASES.map(([name, expected, strength]): [string, Expected, string | null] => [
    name,
    expected,
    strength ?? null,
  ]);
  it.each(rows)("%s → %s", (medicationName, expected, drugStrength) => {
    const match = scheduleOf({ medicationName, drugStrength });
    expect(expectedOf(match)).toBe(expected);
    expect(match.basis.length).toBeGreaterThan(10);
    if (match.status === "controlled") {
      expect(match.source).toBe("federal");
      expect(match.substance).toBeTruthy();
    }
    if (match.status === "unknown") expect(match.schedule).toBeNull();
  });

  it("covers enough real names", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it("explains a match in one sentence a pharmacist reads", () => {
    expect(scheduleOf({ medicationName: "Xanax 1 mg" }).basis).toBe(
      "Matched “alprazolam” (brand Xanax) in the federal table: Schedule IV (21 CFR 1308.14).",
    );
    expect(scheduleOf({ medicationName: "Amoxicillin" }).basis).toBe(
      "Amoxicillin is not a federally controlled substance.",
    );
    expect(scheduleOf({ medicationName: "Zyxoflam 10 mg" }).basis).toBe(
      "“Zyxoflam 10 mg” was not found in the controlled-substance table or the list of known non-controlled drugs: determine the schedule yourself.",
    );
    expect(scheduleOf({ medicationName: "Augmentin 875" }).basis).toBe(
      "Augmentin (amoxicillin and clavulanate) is not a federally controlled substance.",
    );
  });

  it("says why a combination differs from its parent", () => {
    const syrup = scheduleOf({ medicationName: "Guaifenesin-Codeine 100-10 mg/5 mL" });
    expect(syrup).toMatchObject({ status: "controlled", schedule: "V", substance: "codeine", narcotic: true });
    expect(syrup.basis).toContain("1308.15(c)");
    expect(syrup.basis).toContain("with guaifenesin");
    const tylenol3 = scheduleOf({ medicationName: "Acetaminophen-Codeine #3" });
    expect(tylenol3.basis).toContain("1308.13(e)");
    expect(scheduleOf({ medicationName: "Norco 10-325" }).basis).toContain("October 6, 2014");
  });

  it("reports narcotic status from the DEA list", () => {
    expect(scheduleOf({ medicationName: "Oxycodone 5 mg" }).narcotic).toBe(true);
    expect(scheduleOf({ medicationName: "Buprenorphine 8 mg" }).narcotic).toBe(true);
    expect(scheduleOf({ medicationName: "Adderall 10 mg" }).narcotic).toBe(false);
    expect(scheduleOf({ medicationName: "Tramadol 50 mg" }).narcotic).toBe(false);
    expect(scheduleOf({ medicationName: "Lomotil" }).narcotic).toBe(true);
  });

  it("names the exempted-product problem instead of guessing", () => {
    const m = scheduleOf({ medicationName: "Fioricet 50-300-40 capsule" });
    expect(m).toMatchObject({ status: "unknown", schedule: null, substance: "butalbital" });
    expect(m.basis).toContain("Exempted Prescription Products");
    expect(m.basis).toContain("determine the schedule");
  });

  it("does not call a partly recognised name non-controlled", () => {
    const m = scheduleOf({ medicationName: "Acetaminophen / Xyzcodone 5-325" });
    expect(m.status).toBe("unknown");
    expect(m.basis).toContain("“xyzcodone”");
    expect(m.basis).toContain("only partly recognised");
  });

  it("still reports a controlled match when some words are unknown, and says which", () => {
    const m = scheduleOf({ medicationName: "Oxycodone HCl 5 mg (Rhodes)" });
    expect(m.schedule).toBe("II");
    expect(m.basis).toContain("“rhodes” not recognised");
  });

  it("takes the strictest ingredient of a multi-controlled product", () => {
    const m = scheduleOf({ medicationName: "Carisoprodol-Aspirin-Codeine 200-325-16 mg tablet" });
    expect(m).toMatchObject({ schedule: "III", substance: "codeine", narcotic: true });
  });

  it("notes that an NDC was sent but not looked up", () => {
    const m = scheduleOf({ medicationName: "Alprazolam 1 mg", prescribedNDC: "00009-0029-01", dispensedNDC: null });
    expect(m.schedule).toBe("IV");
    expect(m.source).toBe("federal");
    // Said once where the screen shows the schedule (NDC_NOT_CHECKED), not inside every basis sentence.
    expect(m.byNameOnly).toBe(true);
    expect(m.basis).not.toContain("NDC");
    expect(scheduleOf({ medicationName: "Alprazolam 1 mg", prescribedNDC: null }).byNameOnly).toBeUndefined();
  });
});

describe("scheduleOf: word matching", () => {
  it("ignores case, salts, forms, strengths and extra words", () => {
    for (const name of [
      "OXYCODONE HCL",
      "oxycodone hydrochloride 10 mg tablet",
      "Oxycodone 5mg/5mL oral solution",
      "oxycodone ER 12hr",
    ]) {
      expect(scheduleOf({ medicationName: name }).schedule, name).toBe("II");
    }
  });

  it("matches whole words only", () => {
    expect(scheduleOf({ medicationName: "Dihydrocodeine-Aspirin-Caffeine capsule" }).substance).toBe("dihydrocodeine");
    expect(substancesOf("Dihydrocodeine-Aspirin-Caffeine")).not.toContain("codeine");
    expect(substancesOf("methylphenidate")).toEqual(["methylphenidate"]);
    expect(scheduleOf({ medicationName: "phenidate" }).status).toBe("unknown");
    expect(scheduleOf({ medicationName: "codeinex 10 mg" }).status).toBe("unknown");
    expect(scheduleOf({ medicationName: "Dexmethylphenidate 10 mg" }).substance).toBe("dexmethylphenidate");
    expect(scheduleOf({ medicationName: "Hydroxyzine 25 mg" }).substance).toBe("hydroxyzine");
    expect(scheduleOf({ medicationName: "Esketamine" }).substance).toBe("esketamine");
  });

  it("reads combinations however they are joined", () => {
    for (const name of [
      "Hydrocodone Bitartrate and Acetaminophen",
      "hydrocodone/APAP 10-325",
      "HYDROCODONE-ACETAMINOPHEN",
      "Acetaminophen w/ Hydrocodone",
      "hydrocodone + acetaminophen",
    ]) {
      expect(substancesOf(name), name).toEqual(expect.arrayContaining(["hydrocodone", "acetaminophen"]));
    }
    expect(substancesOf("Tylenol with Codeine #3")).toEqual(["codeine", "acetaminophen"]);
    expect(substancesOf("Promethazine VC with codeine")).toEqual(["promethazine", "phenylephrine", "codeine"]);
    expect(substancesOf("Percocet")).toEqual(["oxycodone", "acetaminophen"]);
    expect(substancesOf("Zyxoflam")).toEqual([]);
  });

  it("answers 10,000 queue lookups from precomputed indexes", () => {
    const names = CASES.map(([n]) => n);
    let controlled = 0;
    for (let i = 0; i < 10_000; i++) {
      if (scheduleOf({ medicationName: names[i % names.length]!, drugStrength: "10 mg" }).status === "controlled")
        controlled++;
    }
    expect(controlled).toBeGreaterThan(0);
  });
});

describe("scheduleOf: a store's state schedules", () => {
  const gabapentinV = [{ substance: "gabapentin", schedule: "V" as const }];

  it("applies a state schedule to a federally non-controlled drug", () => {
    const m = scheduleOf({ medicationName: "Gabapentin 300 mg capsule" }, { extraSchedules: gabapentinV });
    expect(m).toMatchObject({
      status: "controlled",
      schedule: "V",
      substance: "gabapentin",
      source: "state",
      narcotic: false,
    });
    expect(m.basis).toBe("Gabapentin is not federally controlled, but this store's state schedules it as Schedule V.");
  });

  it("names the state when told, and matches brands of the configured substance", () => {
    const m = scheduleOf(
      { medicationName: "Neurontin 600 mg" },
      { extraSchedules: gabapentinV, stateLabel: "Kentucky" },
    );
    expect(m.schedule).toBe("V");
    expect(m.basis).toContain("Kentucky schedules it as Schedule V");
  });

  it("accepts the substance as a store types it", () => {
    const m = scheduleOf(
      { medicationName: "gabapentin 100mg" },
      { extraSchedules: [{ substance: " Gabapentin ", schedule: "V" }] },
    );
    expect(m.source).toBe("state");
  });

  it("lets the stricter schedule win, and says so", () => {
    const stricter = scheduleOf(
      { medicationName: "Tramadol 50 mg" },
      { extraSchedules: [{ substance: "tramadol", schedule: "III" }] },
    );
    expect(stricter).toMatchObject({ schedule: "III", source: "state" });
    expect(stricter.basis).toContain("Schedule IV (21 CFR 1308.14)");
    expect(stricter.basis).toContain("stricter and applies");
    const laxer = scheduleOf(
      { medicationName: "Alprazolam 1 mg" },
      { extraSchedules: [{ substance: "alprazolam", schedule: "V" }] },
    );
    expect(laxer).toMatchObject({ schedule: "IV", source: "federal" });
  });

  it("matches substances the federal tables do not know, word by word", () => {
    const m = scheduleOf(
      { medicationName: "Tianeptine sodium 12.5 mg" },
      { extraSchedules: [{ substance: "tianeptine", schedule: "II" }] },
    );
    expect(m).toMatchObject({ status: "controlled", schedule: "II", source: "state", substance: "tianeptine" });
    expect(scheduleOf({ medicationName: "Tianeptine" }).status).toBe("unknown");
  });

  it("leaves other drugs alone", () => {
    expect(scheduleOf({ medicationName: "Lisinopril 10 mg" }, { extraSchedules: gabapentinV }).status).toBe(
      "not-controlled",
    );
    expect(scheduleOf({ medicationName: "Pregabalin 75 mg" }, { extraSchedules: gabapentinV }).source).toBe("federal");
  });

  it("resolves a product-dependent exemption with the state's schedule", () => {
    const m = scheduleOf(
      { medicationName: "Fioricet" },
      { extraSchedules: [{ substance: "butalbital", schedule: "III" }] },
    );
    expect(m).toMatchObject({ status: "controlled", schedule: "III", source: "state" });
  });
});
