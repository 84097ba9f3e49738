// Small pieces the soak's clients and checks share.
import { createHash } from "node:crypto";

export type Outcome = "acknowledged" | "unacknowledged" | "anomaly";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One line of the soak's output. */
export const say = (text: string) => process.stdout.write(`${text}\n`);

export type FetchAnswer =
  | { kind: "answer"; status: number; headers: Headers; text: string }
  | { kind: "error"; timeout: boolean; message: string };

/** fetch with a deadline for the whole exchange; a refused, cut or timed-out exchange is an error, not a throw. */
export async function timedFetch(url: string, init: RequestInit, timeoutMs = 20_000): Promise<FetchAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal, redirect: "manual" });
    const text = await res.text();
    return { kind: "answer", status: res.status, headers: res.headers, text };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return {
      kind: "error",
      timeout: controller.signal.aborted,
      message: `${err instanceof Error ? err.message : String(err)}${cause}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** JSON with object keys sorted at every depth (written here, apart from the product's own canonical form). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A transfer request's content, the fields a retry changes (retryCount, requestTimestamp) left out. */
export function requestDigest(request: unknown): string {
  const copy = structuredClone(request) as { metadata?: Record<string, unknown> };
  if (copy.metadata) {
    delete copy.metadata.retryCount;
    delete copy.metadata.requestTimestamp;
  }
  return createHash("sha256").update(sortedJson(copy)).digest("hex");
}
