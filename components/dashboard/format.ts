// How the dashboard writes people, places and durations. Pure: used by server and client components.
import type { Address, ContactInfo, Name } from "@/lib/interface/client-safe";

/** "Dr. Daniel Chen MD" */
export function fullName(name: Name): string {
  return [name.prefix, name.firstName, name.middleName, name.lastName, name.suffix].filter(Boolean).join(" ");
}

/** "Chen, Daniel" (how a queue is scanned) */
export function sortName(name: { firstName: string; lastName: string }): string {
  return `${name.lastName}, ${name.firstName}`;
}

export function addressLines(address: Address): string[] {
  return [
    address.addressLine1,
    address.addressLine2,
    `${address.city}, ${address.state} ${address.postalCode}${address.countryCode && address.countryCode !== "US" ? ` ${address.countryCode}` : ""}`,
  ].filter((line): line is string => Boolean(line));
}

/** "+1 (215) 555-0143" */
export function formatPhone(contact: ContactInfo | null): string | null {
  if (!contact) return null;
  const d = contact.phoneNumber;
  return `${contact.countryCode} (${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export function formatFax(fax: string | null): string | null {
  if (!fax) return null;
  return /^\d{10}$/.test(fax) ? `(${fax.slice(0, 3)}) ${fax.slice(3, 6)}-${fax.slice(6)}` : fax;
}

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
