// How the search box's text is read (a referenceID, a date of birth, or a name / drug name prefix / rxNumber);
// the SQL each reading becomes, and the queue's other filters, are in queries/queue.ts (list-queue.ts says
// which index each one uses).
export type SearchKind = "referenceID" | "dateOfBirth" | "nameOrRxNumber";

/** A search as the queue runs it: prefixes are LIKE patterns, their wildcards escaped. */
export type QueueSearch =
  | { kind: "referenceID"; id: string }
  | { kind: "dateOfBirth"; /** YYYY-MM-DD */ dob: string }
  | { kind: "nameOrRxNumber"; rxNumber: string; namePrefix: string; reversedNamePrefix: string };

/** How the search box's text is read: a referenceID, a date of birth, or a name (either order) / drug name prefix / rxNumber. */
export function classifySearch(q: string): QueueSearch {
  if (/^trf_[A-Za-z0-9]{1,60}$/.test(q)) return { kind: "referenceID", id: q };
  const dob = parseDob(q);
  if (dob) return { kind: "dateOfBirth", dob };
  const text = q.toLowerCase().replace(/,/g, " ").replace(/\s+/g, " ").trim();
  // A name in either order: "tanaka abigail" as stored, or "abigail tanaka" with the last word moved first.
  const words = text.split(" ");
  const reversed = words.length > 1 ? [words.at(-1), ...words.slice(0, -1)].join(" ") : text;
  return {
    kind: "nameOrRxNumber",
    rxNumber: q,
    namePrefix: likePrefix(text),
    reversedNamePrefix: likePrefix(reversed),
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
