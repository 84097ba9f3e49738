// The one schedule vocabulary (SCHEDULES: "II" to "V", as the drug tables, the database and the store rules
// spell it) and every form it is shown or sent in, derived from it: "C-II" beside a drug, "Schedule II" in
// sentences and in the forms' option lists, "CII" in a decision's drugSchedule (the API's spelling). Pure and
// small (no drug tables): client components import it directly.
export const SCHEDULES = ["II", "III", "IV", "V"] as const;
export type Schedule = (typeof SCHEDULES)[number];

export type ScheduleLabel = `C-${Schedule}`;
/** "C-IV": the short form beside a drug (queue rows, the review screen). */
export const scheduleLabel = (s: Schedule): ScheduleLabel => `C-${s}`;

export type ScheduleName = `Schedule ${Schedule}`;
/** "Schedule IV": the form in sentences and option lists. */
export const scheduleName = (s: Schedule): ScheduleName => `Schedule ${s}`;

export type ScheduleCode = `C${Schedule}`;
/** "CIV": a decision's drugSchedule as the API takes and returns it. */
export const scheduleCode = (s: Schedule): ScheduleCode => `C${s}`;
export const SCHEDULE_CODES = SCHEDULES.map(scheduleCode) as unknown as readonly [ScheduleCode, ...ScheduleCode[]];
/** The numeral of a decision's "CIV". */
export const scheduleOfCode = (code: ScheduleCode): Schedule => code.slice(1) as Schedule;

/** The numeral a spelling names ("CIV", "c-iv", "IV" → "IV"), unchecked: for parsers that validate it next. */
export const scheduleNumeralOf = (text: string): string => text.toUpperCase().replace(/^C-?/, "");
const NUMERALS: ReadonlySet<string> = new Set(SCHEDULES);
/** A schedule however it is spelled (a decision's "CIV", the intake's "IV", "C-IV"); null for anything else. */
export function scheduleOfText(text: string | null | undefined): Schedule | null {
  const numeral = scheduleNumeralOf(text ?? "");
  return NUMERALS.has(numeral) ? (numeral as Schedule) : null;
}

/** "Schedule II to V": every controlled schedule, in a sentence. */
export const CONTROLLED_SCHEDULES_NAME = `${scheduleName(SCHEDULES[0])} to ${SCHEDULES[SCHEDULES.length - 1]!}`;

/** One option per schedule, for every form that picks one. */
export const SCHEDULE_OPTIONS = SCHEDULES.map((s) => ({ value: s, label: scheduleName(s) }));
/** "any": every controlled schedule at once (the queue filter and the transfer log take it). */
export const ANY_CONTROLLED_OPTION = {
  value: "any",
  label: `Any controlled substance (${scheduleLabel(SCHEDULES[0])} to ${scheduleLabel(SCHEDULES[SCHEDULES.length - 1]!)})`,
} as const;
