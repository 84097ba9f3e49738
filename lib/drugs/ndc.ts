// National Drug Codes as people and billing systems write them. An NDC is 10 digits in three segments
// (labeler-product-package) of 4-4-2, 5-3-2 or 5-4-1; billing writes it as 11 digits (5-4-2) by a leading
// zero in the short segment. Only the hyphens say which segment is short, so an unhyphenated 10-digit NDC
// is ambiguous. FDA's final rule moves to a uniform 12-digit 6-4-2 NDC from 2033: such codes are accepted
// and kept as written (with 6-4-2 hyphens), never converted, since NDCs are stored as strings.

export type NormalizedNdc = {
  /** The 11-digit (5-4-2) NDC without hyphens, or null when it cannot be known. */
  ndc11: string | null;
  /** The 12-digit (6-4-2) NDC without hyphens, for the format FDA uses from 2033; else null. */
  ndc12: string | null;
  /** 5-4-2 (or 6-4-2) with hyphens when known, else the input as given. */
  display: string;
  /** Why the NDC could not be normalised, or what was assumed; null when it is a plain 11-digit NDC. */
  note: string | null;
};

const HYPHENATED = /^(\d+)-(\d+)-(\d+)$/;

/** Normalises an NDC as sent ("0002-3227-30", "00002322730", "NDC 50090-2882-0") to 11 digits. */
export function normalizeNdc(input: string): NormalizedNdc {
  const given = input;
  const s = input
    .trim()
    .replace(/^ndc[\s:#]*/i, "")
    .replace(/\s*-\s*/g, "-")
    .replace(/\s+/g, "-");
  const m = HYPHENATED.exec(s);
  if (m) {
    const [, a = "", b = "", c = ""] = m;
    const shape = `${a.length}-${b.length}-${c.length}`;
    switch (shape) {
      case "5-4-2":
        return known(`${a}${b}${c}`, null);
      case "4-4-2":
        return known(`0${a}${b}${c}`, `10-digit NDC (4-4-2) ${s}: a leading zero was added to the labeler code.`);
      case "5-3-2":
        return known(`${a}0${b}${c}`, `10-digit NDC (5-3-2) ${s}: a leading zero was added to the product code.`);
      case "5-4-1":
        return known(`${a}${b}0${c}`, `10-digit NDC (5-4-1) ${s}: a leading zero was added to the package code.`);
      case "6-4-2":
        return twelve(`${a}${b}${c}`);
      default:
        return {
          ndc11: null,
          ndc12: null,
          display: given,
          note: `Not an NDC: segments of ${shape} digits (an NDC is 4-4-2, 5-3-2, 5-4-1, 5-4-2 or, from 2033, 6-4-2).`,
        };
    }
  }
  if (/^\d{11}$/.test(s)) return known(s, null);
  if (/^\d{12}$/.test(s)) return twelve(s);
  if (/^\d{10}$/.test(s)) {
    return {
      ndc11: null,
      ndc12: null,
      display: given,
      note: `10 digits without hyphens are ambiguous: ${formatNdc(`0${s}`)} (4-4-2), ${formatNdc(`${s.slice(0, 5)}0${s.slice(5)}`)} (5-3-2) or ${formatNdc(`${s.slice(0, 9)}0${s.slice(9)}`)} (5-4-1); ask for the hyphenated or 11-digit NDC.`,
    };
  }
  return {
    ndc11: null,
    ndc12: null,
    display: given,
    note: /^\d+$/.test(s)
      ? `Not an NDC: ${s.length} digits (an NDC has 10 digits in hyphenated segments, or 11 in the billing format).`
      : "Not an NDC: only digits and hyphens are expected.",
  };
}

/** "00002322730" → "00002-3227-30"; a 12-digit NDC → 6-4-2; anything else is returned as given. */
export function formatNdc(ndc: string): string {
  if (/^\d{11}$/.test(ndc)) return `${ndc.slice(0, 5)}-${ndc.slice(5, 9)}-${ndc.slice(9)}`;
  if (/^\d{12}$/.test(ndc)) return `${ndc.slice(0, 6)}-${ndc.slice(6, 10)}-${ndc.slice(10)}`;
  return ndc;
}

function known(ndc11: string, note: string | null): NormalizedNdc {
  return { ndc11, ndc12: null, display: formatNdc(ndc11), note };
}

function twelve(ndc12: string): NormalizedNdc {
  return {
    ndc11: null,
    ndc12,
    display: formatNdc(ndc12),
    note: "12-digit NDC (6-4-2), the format FDA uses from 2033: kept as written.",
  };
}
