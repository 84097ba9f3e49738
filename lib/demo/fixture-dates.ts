// How the sample transfers write their dates: RFC 3339 in the sender's offset, as the interface carries them.

export const DAY_MS = 86_400_000;

/** RFC 3339 with the given offset from UTC in minutes, e.g. 2024-05-01T09:30:00-05:00. */
export function formatDateTime(epochMs: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
