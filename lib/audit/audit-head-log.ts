// The audit chain's head (last record id and hash, and the set of every chain's head) written to the structured log at start, every
// AUDIT_HEAD_LOG_MINUTES and at shutdown. Logs leave the database (a log shipper, the journal), so a head
// recorded there lets `npm run cli -- audit verify --head <heads>` prove later that history up to it was not
// truncated or rewritten, even by someone holding the database's owner role.
import { auditKey, keyIdOf } from "@/lib/audit/audit-hash";
import { findAuditChainHead } from "@/lib/audit/verify-audit-chain";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";

export async function logAuditChainHead(reason: "start" | "interval" | "shutdown"): Promise<void> {
  try {
    const head = await findAuditChainHead();
    if (head) log("info", "audit chain head", { id: head.id, hash: head.hash, heads: head.heads, reason });
  } catch (err) {
    log("warn", "audit chain head not recorded", { reason, ...errorFields(err) });
  }
}

/**
 * Logs the head now (awaited: before the server answers, so a head is on record however soon it stops) and
 * then periodically; stop() logs it once more (call it before the database closes).
 */
export async function startAuditHeadLog(): Promise<{ stop(): Promise<void> }> {
  await logAuditChainHead("start");
  const timer = setInterval(() => void logAuditChainHead("interval"), env().AUDIT_HEAD_LOG_MINUTES * 60_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await logAuditChainHead("shutdown");
    },
  };
}

/**
 * A process with another AUDIT_HMAC_KEY than the one the log is chained under would append records that
 * no longer verify: refused at start, naming both key ids (fingerprints, not keys).
 */
export async function findAuditKeyMismatch(): Promise<string | null> {
  const key = auditKey();
  const last = await db().auditEvent.findFirst({
    where: { hashAlg: { startsWith: "hmac-sha256" } },
    orderBy: { id: "desc" },
    select: { hashAlg: true },
  });
  const keyId = last ? keyIdOf(last.hashAlg) : null;
  if (!keyId || keyId === key.id) return null;
  return (
    `the audit log is chained under another AUDIT_HMAC_KEY (key id ${keyId}; this process's key id is ${key.id}). ` +
    "The server, the worker and the CLI must share AUDIT_HMAC_KEY."
  );
}
