// The federal controlled-substance table, shipped as data (nothing is fetched at run time). Facts from
// 21 CFR 1308.12-1308.15 and DEA's "Controlled Substances - Alphabetical Order" list (substance, schedule,
// narcotic or not); brand names from product labelling. It covers what a US retail pharmacy dispenses, not
// Schedule I or research chemicals. Where a combination product's schedule differs from its parent's
// (codeine with acetaminophen is III, codeine cough syrups are V), COMBINATION_RULES says so.
//
// This module assembles the table from one file per schedule under controlled/, in the order the schedules
// run (II, III, IV, V: the lexicon indexes the entries in this order).
import { SCHEDULE_II_OPIOIDS } from "@/lib/drugs/controlled/schedule-ii-opioids";
import { SCHEDULE_II_STIMULANTS_AND_DEPRESSANTS } from "@/lib/drugs/controlled/schedule-ii-stimulants-and-depressants";
import { SCHEDULE_III } from "@/lib/drugs/controlled/schedule-iii";
import { SCHEDULE_IV } from "@/lib/drugs/controlled/schedule-iv";
import { SCHEDULE_V } from "@/lib/drugs/controlled/schedule-v";
import type { ControlledSubstance } from "@/lib/drugs/controlled/entry-types";

export type { Schedule } from "@/lib/drugs/schedule-names";
export type { CombinationRule, ControlledProduct, ControlledSubstance } from "@/lib/drugs/controlled/entry-types";
export { SCHEDULE_SECTIONS, compareSchedules } from "@/lib/drugs/controlled/schedule-order";
export { COMBINATION_RULES, COUGH_COLD_COMPANIONS } from "@/lib/drugs/controlled/combination-rules";

export const CONTROLLED_SUBSTANCES: readonly ControlledSubstance[] = [
  ...SCHEDULE_II_OPIOIDS,
  ...SCHEDULE_II_STIMULANTS_AND_DEPRESSANTS,
  ...SCHEDULE_III,
  ...SCHEDULE_IV,
  ...SCHEDULE_V,
];
