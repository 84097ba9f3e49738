// JSON with object keys sorted at every depth: the same value always gives the same text, whatever order
// its keys were written or stored in (PostgreSQL's jsonb reorders them). For hashing (every intake request's
// content hash, every audit record), so it builds one string in loops rather than arrays of entries and parts.
// Keys sort by UTF-16 code units (Array.prototype.sort's default); undefined members are left out.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ",") + canonicalJson(value[i]);
    return out + "]";
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += (out.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + canonicalJson(member);
  }
  return out + "}";
}
