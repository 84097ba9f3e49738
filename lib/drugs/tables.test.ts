// The shipped tables hold together: every name resolves the way its table says, nothing is both
// controlled and not, and every substance a rule or class mentions is one the matcher knows.
import { describe, expect, it } from "vitest";
import {
  COMBINATION_RULES,
  CONTROLLED_SUBSTANCES,
  CROSS_REACTIVITY,
  DRUG_CLASSES,
  NON_CONTROLLED_DRUGS,
  scheduleOf,
  substancesOf,
} from "@/lib/drugs";
import { KNOWN_SUBSTANCES, NON_CONTROLLED_SUBSTANCES } from "@/lib/drugs/lexicon";

const CONTROLLED_NAMES = new Set(CONTROLLED_SUBSTANCES.map((c) => c.substance));

describe("drug tables", () => {
  it("never lists a substance as both controlled and not controlled", () => {
    expect([...NON_CONTROLLED_SUBSTANCES].filter((s) => CONTROLLED_NAMES.has(s))).toEqual([]);
  });

  it("lists each controlled substance once, lower case", () => {
    expect(CONTROLLED_NAMES.size).toBe(CONTROLLED_SUBSTANCES.length);
    for (const c of CONTROLLED_SUBSTANCES) expect(c.substance).toBe(c.substance.toLowerCase());
  });

  it("knows about 300 common non-controlled drugs", () => {
    expect(NON_CONTROLLED_SUBSTANCES.size).toBeGreaterThanOrEqual(300);
  });

  it("knows every companion, rule and class member it mentions", () => {
    const mentioned = [
      ...CONTROLLED_SUBSTANCES.flatMap((c) => (c.products ?? []).flatMap((p) => p.with ?? [])),
      ...COMBINATION_RULES.flatMap((r) => [r.substance, ...(Array.isArray(r.with) ? r.with : [])]),
      ...DRUG_CLASSES.flatMap((c) => [...c.members, ...Object.values(c.groups ?? {}).flat()]),
      ...CROSS_REACTIVITY.flatMap((x) => x.substances ?? []),
    ];
    expect(mentioned.filter((s) => !KNOWN_SUBSTANCES.has(s))).toEqual([]);
    for (const r of COMBINATION_RULES) expect(CONTROLLED_NAMES.has(r.substance), r.substance).toBe(true);
    const classNames = new Set(DRUG_CLASSES.map((c) => c.name));
    for (const x of CROSS_REACTIVITY) {
      expect(classNames.has(x.allergyClass)).toBe(true);
      if (x.drugClass) expect(classNames.has(x.drugClass)).toBe(true);
    }
  });

  it("gives every controlled substance its table schedule by generic name", () => {
    for (const c of CONTROLLED_SUBSTANCES) {
      const m = scheduleOf({ medicationName: c.substance });
      expect([m.status, m.schedule, m.substance, m.narcotic], c.substance).toEqual([
        "controlled",
        c.schedule,
        c.substance,
        c.narcotic,
      ]);
    }
  });

  it("recognises every controlled brand and alias as its substance", () => {
    for (const c of CONTROLLED_SUBSTANCES) {
      for (const name of [...(c.brands ?? []), ...(c.aliases ?? []), ...(c.products ?? []).flatMap((p) => p.brands)]) {
        expect(substancesOf(name), name).toContain(c.substance);
        const m = scheduleOf({ medicationName: name });
        expect(m.status === "controlled" || (m.status === "unknown" && m.substance !== null), name).toBe(true);
      }
    }
  });

  it("calls every listed non-controlled drug, brand and spelling not controlled", () => {
    for (const d of NON_CONTROLLED_DRUGS) {
      for (const name of [...d.substances, ...d.brands, ...d.aliases]) {
        expect(scheduleOf({ medicationName: name }).status, name).toBe("not-controlled");
      }
    }
  });

  it("holds the facts a pharmacist will check first", () => {
    const schedule = (name: string) => scheduleOf({ medicationName: name }).schedule;
    const status = (name: string) => scheduleOf({ medicationName: name }).status;
    expect(schedule("Oxycodone")).toBe("II");
    expect(schedule("Alprazolam")).toBe("IV");
    expect(schedule("Zolpidem")).toBe("IV");
    expect(schedule("Tramadol")).toBe("IV");
    expect(schedule("Buprenorphine")).toBe("III");
    expect(schedule("Suboxone")).toBe("III");
    expect(schedule("Testosterone cypionate")).toBe("III");
    expect(schedule("Pregabalin")).toBe("V");
    expect(schedule("Methylphenidate")).toBe("II");
    expect(schedule("Lisdexamfetamine")).toBe("II");
    expect(schedule("Codeine sulfate")).toBe("II");
    expect(schedule("Phendimetrazine")).toBe("III");
    expect(schedule("Benzphetamine")).toBe("III");
    expect(schedule("Diethylpropion")).toBe("IV");
    expect(schedule("Solriamfetol")).toBe("IV");
    expect(schedule("Lemborexant")).toBe("IV");
    expect(schedule("Ezogabine")).toBe("V");
    expect(schedule("Cenobamate")).toBe("V");
    for (const name of [
      "Gabapentin",
      "Pitolisant",
      "Cannabidiol",
      "Dextromethorphan",
      "Naltrexone",
      "Nalbuphine",
      "Primidone",
      "Pseudoephedrine",
    ]) {
      expect(status(name), name).toBe("not-controlled");
    }
  });
});
