// The wire format's closed lists (error and response types, enums), string limits, numeric maximums and
// the patterns the OpenAPI document publishes; see wire.ts for the conventions they follow.
export const ERROR_TYPES = [
  "MISSING_INFO",
  "INVALID_INFO",
  "RX_EXPIRED",
  "SPEC_MISMATCH",
  "DUPLICATE_REQUEST",
  "OTHER",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** What each error type means (interface section 7, as settled in docs/interface.md). */
export const ERROR_TYPE_MEANINGS: Readonly<Record<ErrorType, string>> = {
  MISSING_INFO: "a required field is missing: the key is absent, or null where the field is not nullable",
  INVALID_INFO:
    "data is well-formed but not an acceptable value: an NPI or DEA check digit, an unknown receiving pharmacy, refills that do not add up, a filled prescription with no refills left, dates out of order",
  RX_EXPIRED: "the prescription is expired",
  SPEC_MISMATCH:
    "data does not match the specification: wrong JSON type, length, pattern, enum value or date format, an unknown field, a body that is not a JSON object or not UTF-8, or text that is not valid Unicode or contains a NUL (strings must be valid Unicode without NUL, at any depth, key names included)",
  DUPLICATE_REQUEST:
    "the request was already submitted with other content, or the prescription already has a live transfer here",
  OTHER: "any other failure",
};

export const RESPONSE_TYPES = ["RECEIVED", "CONFIRMED", "ERROR"] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

export const ALLERGIES_DESCRIPTORS = ["KNOWN_ALLERGIES_INCLUDED", "NO_KNOWN_ALLERGIES", "NOT_AVAILABLE"] as const;
export const GENDERS = ["M", "F", "U"] as const;

/** Maximum lengths of the strings the interface leaves unbounded. */
export const TEXT_LIMITS = {
  identifier: 128,
  code: 64,
  name: 200,
  shortText: 100,
  allergy: 200,
  sig: 1000,
  url: 2048,
  email: 254,
  phone: 40,
  dea: 16,
  allergies: 100,
} as const;

/**
 * Upper bounds of the numbers, from the NCPDP fields they travel in (days supply 3 digits, quantity
 * 9999999.999, refills 0-99 after the first fill). Past them a value is SPEC_MISMATCH. The lower bounds
 * (daysSupply and quantities above 0, refillsAuthorized at least 1, refillsRemaining not negative) are
 * INVALID_INFO in validate-request.ts and published on each field with `minimum` / `exclusiveMinimum`.
 */
export const WIRE_MAXIMUMS = {
  daysSupply: 999,
  quantity: 9999999.999,
  refillsAuthorized: 100,
  retryCount: 10000,
} as const;

/** The date-time shape RFC 3339 leaves open and we do not (upper-case T and Z, seconds, a colon in the offset). */
export const DATE_TIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$";

/**
 * What an http(s) URL must look like, as a JSON Schema pattern: the scheme, a domain name with a letters-only
 * top-level label (zod's httpUrl hostname rule), an optional port, then anything without whitespace. JSON
 * Schema's `format: uri` is RFC 3986, stricter than the WHATWG URL parser we check with, so it is not published.
 */
export const HTTP_URL_PATTERN =
  "^[hH][tT][tT][pP][sS]?://([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}(:[0-9]{1,5})?([/?#]\\S*)?$";

/**
 * The shape a TransferRequest body may have, checked on its text before it is parsed or validated, so that
 * one request's cost is bounded by these numbers rather than by its size: at most this many keys in an object
 * (metadata, which is open, is the only object that could have more than 20), items in an array (allergies
 * has at most TEXT_LIMITS.allergies) and values in the whole body. Nesting is bounded by MAX_JSON_DEPTH
 * (lib/text-safety.ts). A valid request has about 150 values.
 */
export const BODY_SHAPE_LIMITS = { keysPerObject: 64, itemsPerArray: 100, values: 4000 } as const;
