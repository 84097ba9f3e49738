// The queue's filters as SQL conditions: sender, dates, flags, schedule, and how the search box's text is
// read (see list-queue.ts for the indexes each one uses).
import { Prisma } from "@/generated/prisma/client";
import { addDays } from "@/lib/interface";
import type { QueueQuery } from "@/lib/transfers/queue/queue-query";

export type SearchKind = "referenceID" | "dateOfBirth" | "nameOrRxNumber";

/** How the search box's text is read: a referenceID, a date of birth, or a name (either order) / drug name prefix / rxNumber. */
export function classifySearch(q: string): { kind: SearchKind; sql: Prisma.Sql } {
  if (/^trf_[A-Za-z0-9]{1,60}$/.test(q)) return { kind: "referenceID", sql: Prisma.sql`t.id = ${q}` };
  const dob = parseDob(q);
  if (dob) return { kind: "dateOfBirth", sql: Prisma.sql`t.patient_dob = ${dob}::date` };
  const text = q.toLowerCase().replace(/,/g, " ").replace(/\s+/g, " ").trim();
  // A name in either order: "tanaka abigail" as stored, or "abigail tanaka" with the last word moved first.
  const words = text.split(" ");
  const reversed = words.length > 1 ? [words.at(-1), ...words.slice(0, -1)].join(" ") : text;
  const prefix = likePrefix(text);
  return {
    kind: "nameOrRxNumber",
    sql: Prisma.sql`(t.rx_number = ${q} OR t.patient_search LIKE ${prefix} OR t.patient_search LIKE ${likePrefix(reversed)} OR t.drug_search LIKE ${prefix})`,
  };
}

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** YYYY-MM-DD or MM/DD/YYYY, a real calendar date; else null. */
export function parseDob(q: string): string | null {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(q);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(q);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * The review checks flag the transfer (classify-transfer.ts): one warns or fails whatever the day, or the
 * day the expiry check starts warning has come on the store's calendar. A row not yet classified is shown.
 * A store's day is within one day of UTC's, so only rows near that edge look the store's time zone up.
 */
function warningsCondition(now: Date): Prisma.Sql {
  const utcDay = now.toISOString().slice(0, 10);
  const storeDay = Prisma.sql`(${now}::timestamptz AT TIME ZONE COALESCE((SELECT s.time_zone FROM stores s WHERE s.npi = t.receiving_npi), 'UTC'))::date`;
  return Prisma.sql`(t.check_flags IS NULL OR t.check_flags <> '{}' OR t.warns_from < ${utcDay}::date
    OR (t.warns_from <= ${addDays(utcDay, 1)}::date AND t.warns_from <= ${storeDay}))`;
}

export function filterConditions(query: QueueQuery, now: Date): Prisma.Sql[] {
  const conds: Prisma.Sql[] = [];
  if (query.sender) conds.push(Prisma.sql`t.partner_id = ${query.sender}`);
  if (query.from) conds.push(Prisma.sql`t.received_at >= ${new Date(query.from)}`);
  if (query.to) conds.push(Prisma.sql`t.received_at < ${new Date(query.to)}`);
  for (const flag of query.flags) {
    if (flag === "allergies") conds.push(Prisma.sql`t.has_allergies`);
    if (flag === "allergies-unknown")
      conds.push(Prisma.sql`t.request->'patient'->'allergyDetails'->>'allergiesDescriptor' = 'NOT_AVAILABLE'`);
    if (flag === "controlled") conds.push(Prisma.sql`t.drug_schedule IN ('II', 'III', 'IV', 'V')`);
    if (flag === "warnings") conds.push(warningsCondition(now));
  }
  if (query.schedule === "any") conds.push(Prisma.sql`t.drug_schedule IN ('II', 'III', 'IV', 'V')`);
  else if (query.schedule) conds.push(Prisma.sql`t.drug_schedule = ${query.schedule}`);
  if (query.q) conds.push(classifySearch(query.q).sql);
  return conds;
}
