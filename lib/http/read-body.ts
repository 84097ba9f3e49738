// Reads a request body up to a limit without buffering more than the limit (a huge upload is cut off early).
export const MAX_BODY_BYTES = 1024 * 1024;

/** "aborted": the client went away mid-body (only the node:http reader tells it apart from a failure). */
export type BodyResult = { ok: true; text: string } | { ok: false; reason: "too_large" | "aborted" };

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
  return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
}
