// Check-digit rules for the identifiers a transfer carries (NPI, DEA) and the US state codes an address
// may use. Pure functions: the validator uses them to tell a well-formed identifier from a real one, and
// the fixtures use the `compute…` functions to make identifiers that pass.

const NPI_PATTERN = /^[12]\d{9}$/;
const NPI_BODY_PATTERN = /^\d{9}$/;
const DEA_PATTERN = /^[A-Z][A-Z9]\d{7}$/;
const DEA_BODY_PATTERN = /^\d{6}$/;

/**
 * The Luhn check digit of an NPI, given its first nine digits.
 *
 * The NPI check digit is the Luhn digit of the 15-digit number "80840" + the nine digits (80840 is the
 * ISO health-industry prefix). The prefix always contributes 24 to the Luhn sum, so only the nine
 * digits are walked. Throws when `firstNineDigits` is not exactly nine digits.
 */
export function computeNpiCheckDigit(firstNineDigits: string): number {
  if (!NPI_BODY_PATTERN.test(firstNineDigits)) {
    throw new RangeError("computeNpiCheckDigit expects exactly nine digits");
  }
  const NPI_PREFIX_LUHN_SUM = 24;
  let sum = NPI_PREFIX_LUHN_SUM;
  // Walking from the right, the digit next to the (future) check digit is doubled, then every other one.
  for (let i = 0; i < 9; i++) {
    const digit = Number(firstNineDigits[8 - i]);
    if (i % 2 === 0) {
      const doubled = digit * 2;
      sum += doubled > 9 ? doubled - 9 : doubled;
    } else {
      sum += digit;
    }
  }
  return (10 - (sum % 10)) % 10;
}

/** A National Provider Identifier: ten digits, the first 1 or 2, the last a Luhn check digit (prefix 80840). */
export function isValidNpi(value: string): boolean {
  if (!NPI_PATTERN.test(value)) return false;
  return computeNpiCheckDigit(value.slice(0, 9)) === Number(value[9]);
}

/**
 * The check digit of a DEA registration number, given its first six digits d1…d6:
 * the last digit of (d1 + d3 + d5) + 2 × (d2 + d4 + d6). Throws when not exactly six digits.
 */
export function computeDeaCheckDigit(firstSixDigits: string): number {
  if (!DEA_BODY_PATTERN.test(firstSixDigits)) {
    throw new RangeError("computeDeaCheckDigit expects exactly six digits");
  }
  const d = [...firstSixDigits].map(Number) as [number, number, number, number, number, number];
  return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10;
}

/** True when `value` has the DEA number shape (two letters, then seven digits). */
export function hasDeaFormat(value: string): boolean {
  return DEA_PATTERN.test(value);
}

/**
 * A DEA registration number: a registrant-type letter, the initial of the registrant's last name (or
 * the digit 9 for a business whose name starts with a digit), six digits and a check digit.
 * Upper case only, as the DEA issues them.
 */
export function isValidDea(value: string): boolean {
  if (!hasDeaFormat(value)) return false;
  return computeDeaCheckDigit(value.slice(2, 8)) === Number(value[8]);
}

/**
 * Two-letter USPS codes of the states, the District of Columbia, the territories, the freely associated
 * states that USPS delivers to (FM, MH, PW), and the military "states" AA, AE and AP.
 */
// prettier-ignore
export const US_STATE_CODES: ReadonlySet<string> = new Set([
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
  "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
  "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  "DC",
  "PR", "VI", "GU", "AS", "MP",
  "FM", "MH", "PW",
  "AA", "AE", "AP",
]);

export function isUsStateCode(value: string): boolean {
  return US_STATE_CODES.has(value);
}
