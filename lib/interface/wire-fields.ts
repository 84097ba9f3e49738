// The field builders the wire schemas share: non-blank bounded text, digit strings, e-mail, date and
// date-time, and the NPI, DEA and NDC identifiers with their published descriptions.
import * as z from "zod";

import { TEXT_LIMITS } from "./wire-constants";

const NOT_BLANK = /\S/;

/** A string of 1..max characters that is not all whitespace. */
export function text(max: number) {
  return z.string().min(1).max(max).regex(NOT_BLANK, "must not be blank");
}

export function digits(pattern: RegExp, message: string) {
  return z.string().regex(pattern, message);
}

export const email = () => z.email().max(TEXT_LIMITS.email);

/** `date`: YYYY-MM-DD, a real calendar date. */
export const date = () => z.iso.date();

/** `date-time`: RFC 3339 with seconds and a time-zone offset (`Z` or ±hh:mm), a real calendar date. */
export const dateTime = () => z.iso.datetime({ offset: true });

export const npi = () =>
  digits(/^\d{10}$/, "must be exactly 10 digits").meta({
    description: "National Provider Identifier: 10 digits, the last a Luhn check digit (prefix 80840).",
    example: "1234567893",
  });

export const dea = () =>
  text(TEXT_LIMITS.dea).meta({
    description:
      "DEA registration number: two letters and seven digits, the last a check digit. Null when there is none.",
    example: "AP5836727",
  });

export const ndc = () =>
  z.string().min(1).max(11).regex(/^\d+$/, "must contain digits only").meta({
    description:
      "National Drug Code: digits only, no hyphens, 1-11 characters. Send the 11-digit billing form (5-4-2, e.g. 00071015523). A 10-digit code is accepted and kept exactly as sent, but without hyphens it is ambiguous (4-4-2, 5-3-2 or 5-4-1 with the leading zero in a different segment): it is never converted, and the pharmacist is shown its three possible 11-digit readings and may ask you which one is meant.",
    example: "00071015523",
  });
