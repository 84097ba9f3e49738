// A store's own drug rules, on top of federal law (states schedule more substances and set their own limits):
//   - extraSchedules: substances its state schedules beyond the federal table (gabapentin is C-V in several
//     states); the stricter of the federal and the state schedule applies;
//   - rxExpiryMonths: how long a non-controlled prescription stays valid after it was written (commonly 12).
// Pure, no server-only imports: the admin form validates with the same schema.
import * as z from "zod";
import { isTimeZone } from "@/lib/alerts/alert-settings";
import type { ExtraSchedule } from "@/lib/drugs";
import { SCHEDULES, scheduleNumeralOf } from "@/lib/drugs/schedule-names";

export const ExtraScheduleSchema = z.object({
  substance: z
    .string()
    .trim()
    .toLowerCase()
    .min(2, "substance must be at least 2 characters")
    .max(60, "substance must be at most 60 characters")
    .regex(/^[a-z][a-z0-9 ,'-]*$/, "substance: letters, digits, spaces and hyphens, as the drug's generic name"),
  schedule: z.enum(SCHEDULES, {
    error: `schedule must be ${SCHEDULES.slice(0, -1).join(", ")} or ${SCHEDULES.at(-1)}`,
  }),
});

export const StoreRulesSchema = z.object({
  extraSchedules: z.array(ExtraScheduleSchema).max(100, "at most 100 state schedules"),
  rxExpiryMonths: z
    .number()
    .int("months must be a whole number")
    .min(1, "at least 1 month")
    .max(60, "at most 60 months"),
});

export type StoreRules = { extraSchedules: readonly ExtraSchedule[]; rxExpiryMonths: number };

/**
 * The rules as the drug review applies them: with the store's time zone (the one its alert settings name),
 * because every date rule counts the store's own calendar days, not UTC's.
 */
export type StoreRulesInZone = StoreRules & { timeZone: string };

export const DEFAULT_STORE_RULES: StoreRulesInZone = { extraSchedules: [], rxExpiryMonths: 12, timeZone: "UTC" };

/** A store row's rules; a malformed stored value falls back to the federal defaults rather than failing intake. */
export function parseStoreRules(row: { extraSchedules: unknown; rxExpiryMonths: number }): StoreRules {
  const parsed = StoreRulesSchema.safeParse({ extraSchedules: row.extraSchedules, rxExpiryMonths: row.rxExpiryMonths });
  return parsed.success
    ? parsed.data
    : { extraSchedules: DEFAULT_STORE_RULES.extraSchedules, rxExpiryMonths: DEFAULT_STORE_RULES.rxExpiryMonths };
}

/** The rules with the store's time zone; an unknown zone (never saved: the admin form checks) counts UTC days. */
export function inZone(rules: StoreRules, timeZone: string | null | undefined): StoreRulesInZone {
  return { ...rules, timeZone: timeZone && isTimeZone(timeZone) ? timeZone : "UTC" };
}

/** "gabapentin:V, carisoprodol:IV" (CLI and admin form) to the list; throws a readable message. */
export function parseExtraSchedulesText(text: string): ExtraSchedule[] {
  const items = text
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [substance = "", schedule = ""] = entry.split(/\s*[:=]\s*/);
      return { substance, schedule: scheduleNumeralOf(schedule) };
    });
  const parsed = z.array(ExtraScheduleSchema).max(100).safeParse(items);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

export function formatExtraSchedules(list: readonly ExtraSchedule[]): string {
  return list.map((e) => `${e.substance}:${e.schedule}`).join(", ");
}
