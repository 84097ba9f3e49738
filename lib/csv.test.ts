import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "@/lib/csv";

describe("CSV for spreadsheets", () => {
  it("quotes every field and doubles quotes", () => {
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField(null)).toBe('""');
    expect(csvField(undefined)).toBe('""');
    expect(csvField(42)).toBe('"42"');
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvField(new Date("2026-01-02T03:04:05.000Z"))).toBe('"2026-01-02T03:04:05.000Z"');
  });

  it("neutralises what a spreadsheet would run as a formula", () => {
    for (const danger of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x")']) {
      const field = csvField(danger);
      expect(field.startsWith(`"'`), danger).toBe(true);
    }
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField("a=b")).toBe('"a=b"');
  });

  it("ends rows with CRLF", () => {
    expect(csvRow(["a", 1, null])).toBe('"a","1",""\r\n');
  });
});
