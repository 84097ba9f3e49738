// How the dashboard writes ages, durations and statuses (people and places: lib/interface/people-and-places.ts).
// Pure: used by server and client components.

/** Whole years between a YYYY-MM-DD birth date and `now`. */
export function ageInYears(dateOfBirth: string, now: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

/** "2 h 05 min", "12 min", "45 s" */
export function formatDuration(ms: number): string {
  const totalMinutes = Math.floor(Math.abs(ms) / 60_000);
  if (totalMinutes < 1) return `${Math.max(0, Math.floor(Math.abs(ms) / 1000))} s`;
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  if (h === 0) return `${m} min`;
  if (h >= 48) return `${Math.floor(h / 24)} days`;
  return `${h} h ${String(m).padStart(2, "0")} min`;
}

export const GENDER_LABELS: Record<string, string> = { M: "Male", F: "Female", U: "Not specified" };

export const STATUS_LABELS: Record<string, string> = {
  RECEIVED: "Pending",
  CONFIRMED: "Approved",
  REJECTED: "Rejected",
};

/** Where a transfer's age stands against the sender's 4-hour window: the queue escalates by it. */
export type AgeLevel = "fresh" | "waiting" | "late" | "urgent" | "overdue";

export function ageLevel(ageMs: number, windowMs: number): AgeLevel {
  const f = ageMs / windowMs;
  if (f >= 1) return "overdue";
  if (f >= 0.75) return "urgent";
  if (f >= 0.5) return "late";
  if (f >= 0.25) return "waiting";
  return "fresh";
}
