// Where each schedule is set in the CFR, and which of two schedules is the stricter.
import type { Schedule } from "@/lib/drugs/schedule-names";

export const SCHEDULE_SECTIONS: Readonly<Record<Schedule, string>> = {
  II: "21 CFR 1308.12",
  III: "21 CFR 1308.13",
  IV: "21 CFR 1308.14",
  V: "21 CFR 1308.15",
};

const RANKS: Readonly<Record<Schedule, number>> = { II: 2, III: 3, IV: 4, V: 5 };

/** Negative when `a` is stricter than `b` (II is the strictest schedule a pharmacy dispenses). */
export function compareSchedules(a: Schedule, b: Schedule): number {
  return RANKS[a] - RANKS[b];
}
