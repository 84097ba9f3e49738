// Tells a retry from a different request under the same requestID: the request's content with the
// fields a retry may change (retryCount, requestTimestamp) left out, keys sorted, SHA-256.
import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import type { TransferRequest } from "@/lib/interface";

export function hashRequestContent(request: TransferRequest): string {
  const { retryCount: _retryCount, requestTimestamp: _requestTimestamp, ...metadata } = request.metadata;
  return createHash("sha256")
    .update(canonicalJson({ ...request, metadata }))
    .digest("hex");
}
