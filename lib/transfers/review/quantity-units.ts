// What a prescription's quantities count, from its drugForm: tablets, capsules, mL, g, patches, inhalers…
// The interface sends bare numbers ("quantityDispensed": 80); for a cream that is grams, for an inhaler a
// count of inhalers. Per-day arithmetic (quantity ÷ days supply) is only shown where a day's use is a
// count of the same unit (tablets, capsules, mL of a liquid, patches…), never for a cream or an inhaler.
// Pure and client-safe.

export type QuantityUnit = { singular: string; plural: string; perDayMeaningful: boolean };

const UNITS: [RegExp, QuantityUnit][] = [
  [/tab|caplet/i, { singular: "tablet", plural: "tablets", perDayMeaningful: true }],
  [/cap/i, { singular: "capsule", plural: "capsules", perDayMeaningful: true }],
  [
    /solution|suspension|syrup|elixir|liquid|drops|soln|susp|injection|\bml\b/i,
    { singular: "mL", plural: "mL", perDayMeaningful: true },
  ],
  [
    /inhal|aerosol|\bhfa\b|\bmdi\b|diskus|respimat/i,
    { singular: "inhaler", plural: "inhalers", perDayMeaningful: false },
  ],
  [/cream|ointment|gel|paste|lotion|powder|\bg\b/i, { singular: "g", plural: "g", perDayMeaningful: false }],
  [/patch|transdermal/i, { singular: "patch", plural: "patches", perDayMeaningful: true }],
  [/suppositor/i, { singular: "suppository", plural: "suppositories", perDayMeaningful: true }],
  [/lozenge|troche/i, { singular: "lozenge", plural: "lozenges", perDayMeaningful: true }],
  [/film|strip/i, { singular: "film", plural: "films", perDayMeaningful: true }],
];

const UNKNOWN: QuantityUnit = { singular: "unit", plural: "units", perDayMeaningful: false };

export function quantityUnit(drugForm: string): QuantityUnit {
  return UNITS.find(([pattern]) => pattern.test(drugForm))?.[1] ?? UNKNOWN;
}

/** "30 tablets", "1 tablet", "80 g", "2.5 mL". */
export function formatQuantity(quantity: number, drugForm: string): string {
  const unit = quantityUnit(drugForm);
  return `${roundQuantity(quantity)} ${quantity === 1 ? unit.singular : unit.plural}`;
}

export function roundQuantity(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2)));
}
