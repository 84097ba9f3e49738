// CSV (RFC 4180) for exports that people open in a spreadsheet. Every field is quoted, quotes are
// doubled, and a field that a spreadsheet would run as a formula (it begins with = + - @, or a tab or
// carriage return that some spreadsheets skip before looking) is prefixed with an apostrophe, as OWASP's
// "CSV injection" guidance recommends. Lines end with CRLF.

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "string") text = value;
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
