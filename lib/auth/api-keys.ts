// Partner API keys: shown once at creation, stored as SHA-256, identified to people by prefix and last four.
// What the key operations (create-, revoke-, rotate-api-key.ts) and the sender check share.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

export const API_KEY_PREFIX = "rxk";

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(`${API_KEY_PREFIX}_`);
}

export type CreatedApiKey = { keyId: string; apiKey: string; prefix: string; last4: string };

/** The key change's audit record, written with `tx` so that it commits with the change. */
export function auditKeyChange(
  tx: Prisma.TransactionClient,
  actor: Actor,
  action: string,
  keyId: string,
  partnerId: string,
  details: Record<string, string | number> = {},
) {
  return recordAuditEvent(
    {
      actor,
      action,
      details: { keyId, partnerId, ...details },
    },
    tx,
  );
}
