// The offline drug-knowledge module: controlled-substance schedules, allergy classes, NDC normalisation
// and the federal refill and expiry limits. Pure data and functions, no server-only imports (client
// components use it too); nothing is fetched at run time. See README.md beside this file.
export {
  NDC_NOT_CHECKED,
  scheduleOf,
  type ExtraSchedule,
  type Schedule,
  type ScheduleInput,
  type ScheduleMatch,
  type ScheduleOptions,
} from "@/lib/drugs/schedule";
export {
  CONTROLLED_SUBSTANCES,
  COMBINATION_RULES,
  SCHEDULE_SECTIONS,
  compareSchedules,
  type CombinationRule,
  type ControlledProduct,
  type ControlledSubstance,
} from "@/lib/drugs/controlled-substances";
export { NON_CONTROLLED_DRUGS, substancesOf, type NonControlledDrug } from "@/lib/drugs/lexicon";
export { substanceKeyOf } from "@/lib/drugs/substance-key";
export {
  ANY_CONTROLLED_OPTION,
  CONTROLLED_SCHEDULES_NAME,
  SCHEDULE_CODES,
  SCHEDULE_OPTIONS,
  SCHEDULES,
  scheduleCode,
  scheduleLabel,
  scheduleName,
  scheduleNumeralOf,
  scheduleOfCode,
  scheduleOfText,
  type ScheduleCode,
  type ScheduleLabel,
  type ScheduleName,
} from "@/lib/drugs/schedule-names";
export {
  allergyClassesOf,
  allergyWarnings,
  drugClassesOf,
  CROSS_REACTIVITY,
  DRUG_CLASSES,
  type AllergySeverity,
  type AllergyWarning,
  type CrossReactivity,
  type DrugClass,
} from "@/lib/drugs/allergy-classes";
export { formatNdc, normalizeNdc, type NormalizedNdc } from "@/lib/drugs/ndc";
export {
  CONTROLLED_EXPIRY_MONTHS,
  MAX_CONTROLLED_REFILLS,
  lawfulRefills,
  legalExpiry,
  validMonths,
  type LawfulRefills,
} from "@/lib/drugs/controlled-rules";
