// Tells a retry from a different request under the same requestID: the request's content with the
// fields a retry may change (retryCount, requestTimestamp) left out, keys sorted, SHA-256.
import { createHash } from "node:crypto";
import type { TransferRequest } from "@/lib/transfers/wire";

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function hashRequestContent(request: TransferRequest): string {
  const { retryCount: _retryCount, requestTimestamp: _requestTimestamp, ...metadata } = request.metadata;
  return createHash("sha256").update(canonical({ ...request, metadata })).digest("hex");
}
