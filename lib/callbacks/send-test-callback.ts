// "Send a test callback": an admin checks a partner's receiver before the first real transfer. A sample
// CONFIRMED TransferResponse, marked `metadata.test: true` (referenceID trf_test), signed with the partner's
// webhook secrets and sent with its own credential header to its callback URL, exactly as a real callback
// attempt is (same SSRF guard, deadline, no redirects). One attempt, sent now and answered in the response;
// it is not a transfer's callback (no retries, no callbacks row) and is recorded in the audit log.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { signedCallbackRequest } from "@/lib/callbacks/deliver-callback";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";
import { attemptFailed, isSuccess, postCallback } from "@/lib/callbacks/post-callback";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { exampleTransferRequest } from "@/lib/demo/example-request";
import { TransferResponseSchema, type TransferResponse } from "@/lib/interface";

export const TEST_REFERENCE_ID = "trf_test";

export type TestCallbackResult = {
  webhookId: string;
  url: string;
  sentAt: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
};

/** The sample: valid against the wire format, and saying plainly that it is a test. */
export function testCallbackBody(now: Date): TransferResponse {
  const request = exampleTransferRequest(now);
  return TransferResponseSchema.parse({
    requestID: "req_test_callback",
    metadata: {
      responseType: "CONFIRMED",
      referenceID: TEST_REFERENCE_ID,
      responseID: newId("rsp"),
      responseTimestamp: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
      test: true,
    },
    prescription: request.prescription,
  });
}

export async function sendTestCallback(partnerId: string, actor: Actor): Promise<TestCallbackResult> {
  const partner = await db().partner.findUnique({ where: { id: partnerId } });
  if (!partner) throw new DomainError("not_found", `no partner ${partnerId}`);
  const now = new Date();
  const webhookId = newId("msg");
  const body = serializeCallbackBody(testCallbackBody(now));
  const request = signedCallbackRequest(webhookId, body, partner.id, {
    callback_url: partner.callbackUrl,
    webhook_secret: partner.webhookSecret,
    previous_webhook_secret: partner.previousWebhookSecret,
    previous_secret_expires_at: partner.previousSecretExpiresAt,
    outbound_header_name: partner.outboundHeaderName,
    outbound_header_value: partner.outboundHeaderValue,
  });
  const attempt =
    "error" in request
      ? attemptFailed(request.error)
      : await postCallback({
          url: partner.callbackUrl,
          body: request.body,
          headers: request.headers,
          timeoutMs: env().CALLBACK_TIMEOUT_MS,
          allowPrivate: env().CALLBACK_ALLOW_PRIVATE_NETWORKS,
          allowInsecureHttp: env().CALLBACK_ALLOW_INSECURE_HTTP,
        });
  const result: TestCallbackResult = {
    webhookId,
    url: partner.callbackUrl,
    sentAt: now.toISOString(),
    ok: isSuccess(attempt),
    statusCode: attempt.statusCode,
    error: attempt.error,
    latencyMs: attempt.latencyMs,
  };
  await recordAuditEvent({
    actor,
    action: "partner.test_callback_sent",
    details: {
      partnerId,
      webhookId,
      url: result.url,
      ok: result.ok,
      statusCode: result.statusCode,
      error: result.error,
      latencyMs: result.latencyMs,
    },
  });
  return result;
}
