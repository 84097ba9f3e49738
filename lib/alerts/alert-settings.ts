// A store's alert settings: the ages at which a pending transfer alerts, and its opening hours (quiet hours:
// a crossing while the store is closed alerts at the next opening). Pure, no server-only imports: the admin
// form validates with the same schema.
import * as z from "zod";

/** The sender treats a transfer as failed 4 hours after it sent it. */
export const SENDER_WINDOW_MINUTES = 240;
export const DEFAULT_ALERT_THRESHOLDS_MINUTES: readonly number[] = [120, 180];
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export function minutesOfDay(hhmm: string): number {
  const [h = "0", m = "0"] = hhmm.split(":");
  return Number(h) * 60 + Number(m);
}

/** Zones already asked about: building a formatter to find out costs about 0.1 ms, and every queue row asks. */
const zoneAnswers = new Map<string, boolean>();
const MAX_ZONE_ANSWERS = 1_000;

export function isTimeZone(tz: string): boolean {
  const known = zoneAnswers.get(tz);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    valid = true;
  } catch {
    valid = false;
  }
  if (zoneAnswers.size >= MAX_ZONE_ANSWERS) zoneAnswers.clear();
  zoneAnswers.set(tz, valid);
  return valid;
}

const DayHoursSchema = z
  .object({
    open: z.string().regex(TIME, "open must be HH:MM (24-hour)"),
    close: z.string().regex(TIME, "close must be HH:MM (24-hour, 24:00 for midnight)"),
  })
  .refine((d) => minutesOfDay(d.close) > minutesOfDay(d.open), {
    message: "close must be after open (same day)",
    path: ["close"],
  });

export type DayHours = z.infer<typeof DayHoursSchema>;

/** Sunday first; null is a closed day. At least one day must be open (otherwise nothing would ever alert). */
export const OpeningHoursSchema = z
  .array(DayHoursSchema.nullable())
  .length(7, "give 7 days, Sunday first (null for a closed day)")
  .refine((days) => days.some((d) => d !== null), "at least one day must be open");

export type OpeningHours = z.infer<typeof OpeningHoursSchema>;

export const AlertThresholdsSchema = z
  .array(
    z
      .number()
      .int("thresholds are whole minutes")
      .min(1, "a threshold must be at least 1 minute")
      .max(
        SENDER_WINDOW_MINUTES - 1,
        "a threshold must be before the sender's 4-hour window closes (at most 239 minutes)",
      ),
  )
  .min(1, "give at least one threshold")
  .max(5, "at most 5 thresholds")
  .refine((list) => list.every((v, i) => i === 0 || v > list[i - 1]!), "thresholds must be ascending, without repeats");

export const StoreAlertSettingsSchema = z.object({
  alertThresholdsMinutes: AlertThresholdsSchema,
  /** null: always open (the default). */
  openingHours: OpeningHoursSchema.nullable(),
  timeZone: z.string().min(1).max(64).refine(isTimeZone, "timeZone must be an IANA time zone, e.g. America/Chicago"),
});

export type StoreAlertSettings = z.infer<typeof StoreAlertSettingsSchema>;

export const DEFAULT_ALERT_SETTINGS: StoreAlertSettings = {
  alertThresholdsMinutes: [...DEFAULT_ALERT_THRESHOLDS_MINUTES],
  openingHours: null,
  timeZone: "UTC",
};

/** A store row's settings; a malformed stored value falls back to the defaults rather than silencing alerts. */
export function parseStoreAlertSettings(row: {
  alertThresholdsMinutes: unknown;
  openingHours: unknown;
  timeZone: unknown;
}): StoreAlertSettings {
  const parsed = StoreAlertSettingsSchema.safeParse({
    alertThresholdsMinutes: row.alertThresholdsMinutes ?? DEFAULT_ALERT_SETTINGS.alertThresholdsMinutes,
    openingHours: row.openingHours ?? null,
    timeZone: row.timeZone ?? "UTC",
  });
  return parsed.success ? parsed.data : DEFAULT_ALERT_SETTINGS;
}
