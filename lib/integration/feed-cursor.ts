// The feed's cursor: opaque to clients (base64url), a feed sequence number inside. Parsed strictly, so any
// other text is a 400 rather than a silent restart from the beginning.
const VERSION = "f1";
const MAX_SEQ = 2n ** 63n - 1n;

export function encodeFeedCursor(seq: bigint): string {
  return Buffer.from(`${VERSION}:${seq}`, "utf8").toString("base64url");
}

/** The sequence number after which to continue, or null when the text is not a cursor of ours. */
export function decodeFeedCursor(cursor: string): bigint | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Round trip: refuses non-canonical base64url that happens to decode to something.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return null;
  const match = /^f1:(0|[1-9]\d{0,18})$/.exec(text);
  if (!match) return null;
  const seq = BigInt(match[1]!);
  return seq <= MAX_SEQ ? seq : null;
}
