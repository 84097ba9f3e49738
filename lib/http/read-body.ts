// Reads a request body up to a limit without buffering more than the limit (a huge upload is cut off early).
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * "aborted": the client went away mid-body (only the node:http reader tells it apart from a failure).
 * "not_utf8": the bytes are not UTF-8 (RFC 8259 §8.1); read leniently they would be stored with U+FFFD in
 * place of what the sender meant.
 */
export type BodyResult = { ok: true; text: string } | { ok: false; reason: "too_large" | "aborted" | "not_utf8" };

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body's bytes as text, or not_utf8. A BOM is kept, so it fails JSON parsing as any stray character does. */
export function decodeBody(chunks: readonly Uint8Array[]): BodyResult {
  try {
    return { ok: true, text: STRICT_UTF8.decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, reason: "not_utf8" };
  }
}

export async function readBodyLimited(request: Request, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: "too_large" };
    }
    chunks.push(value);
  }
  return decodeBody(chunks);
}

/** `application/json`, with no charset or UTF-8 (RFC 8259 §8.1), case-insensitively. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  const charset = params.find((p) => p.startsWith("charset="));
  return !charset || /^charset="?utf-8"?$/.test(charset);
}
