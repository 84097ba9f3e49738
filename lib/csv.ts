// CSV (RFC 4180) for exports that people open in a spreadsheet. Every field is quoted, quotes are
// doubled, and a field that a spreadsheet would run as a formula (it begins with = + - @, or a tab or
// carriage return that some spreadsheets skip before looking) is prefixed with an apostrophe, as OWASP's
// "CSV injection" guidance recommends. The test is made on the text's NFKC form, because some spreadsheets
// normalise full-width and other compatibility forms (＝ ＋ － ＠, ﹦, ⁼ …) into the ASCII characters before
// they look for a formula; U+2212 MINUS SIGN, which NFKC keeps, is counted as a minus. The field itself is
// written as sent. Lines end with CRLF.

const FORMULA_START = /^[=+\-@\t\r\u2212]/;

export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "string") text = value;
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text.normalize("NFKC"))) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
