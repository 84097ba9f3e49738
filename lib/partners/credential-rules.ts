// The limits on a partner's credentials, in one place for the admin forms, the API's input schemas, the
// domain operations (which also serve the CLI) and the callback sender. Client-safe: no server imports.

/** How long an old webhook secret may keep signing after a rotation. */
export const MAX_SECRET_OVERLAP_HOURS = 720;
/** How long an old API key may keep working after a rotation. */
export const MAX_KEY_OVERLAP_HOURS = 2160;
/** The overlap when none is given (the CLI's default). */
export const DEFAULT_OVERLAP_HOURS = 24;

/** A whole or fractional number of hours from 0 to `max`. */
export function isOverlapWithin(hours: number, max: number): boolean {
  return Number.isFinite(hours) && hours >= 0 && hours <= max;
}

export const MAX_OUTBOUND_HEADER_NAME_LENGTH = 64;
export const MAX_OUTBOUND_HEADER_VALUE_LENGTH = 4096;
/** An HTTP field name: RFC 9110's token characters. */
export const HEADER_NAME_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers every callback sets itself (framing and Standard Webhooks): a partner's credential may not replace them. */
export const RESERVED_CALLBACK_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "content-type",
  "connection",
  "transfer-encoding",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);

/** A header name a partner's outbound credential may use on our callbacks. */
export function isUsableOutboundHeaderName(name: string): boolean {
  return (
    name.length <= MAX_OUTBOUND_HEADER_NAME_LENGTH &&
    HEADER_NAME_TOKEN.test(name) &&
    !RESERVED_CALLBACK_HEADERS.has(name.toLowerCase())
  );
}
