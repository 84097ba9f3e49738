// Walks the audit log in order and recomputes every hash: the first record whose content, algorithm, or
// link to the record before it does not match is reported (an edit, an insertion, a removal, a reordering,
// a downgrade to the unkeyed hash). A chain head recorded earlier in the server's log (`--head`) must still
// be in the chain, which also catches a truncation or a rewrite of the whole log by the database's owner.
import { auditKey, GENESIS_HASH, keyedAuditHash, keyIdOf, plainAuditHash } from "@/lib/audit/audit-hash";
import { db } from "@/lib/db/prisma";

export type AuditChainHead = { id: string; hash: string };

export type AuditChainReport =
  | { ok: true; records: number; head: AuditChainHead | null; keyedFrom: string | null }
  | {
      ok: false;
      records: number;
      head: AuditChainHead | null;
      keyedFrom: string | null;
      brokenAt: { id: string; at: string; action: string; reason: string };
    };

export type VerifyOptions = {
  /** A head recorded earlier ("audit chain head" log line): its hash, and optionally its record id. */
  expectedHead?: { hash: string; id?: string };
};

const BATCH = 2000;

/** The last record's id and hash, as the server logs it. */
export async function findAuditChainHead(): Promise<AuditChainHead | null> {
  const last = await db().auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true, hash: true } });
  return last ? { id: last.id.toString(), hash: last.hash } : null;
}

export async function verifyAuditChain(opts: VerifyOptions = {}): Promise<AuditChainReport> {
  const key = auditKey();
  const expected = opts.expectedHead;
  let prevHash = GENESIS_HASH;
  let afterId = BigInt(0);
  let records = 0;
  let head: AuditChainHead | null = null;
  let keyedFrom: string | null = null;
  let headFound = false;
  for (;;) {
    const rows = await db().auditEvent.findMany({ where: { id: { gt: afterId } }, orderBy: { id: "asc" }, take: BATCH });
    for (const row of rows) {
      const id = row.id.toString();
      const broken = (reason: string): AuditChainReport => ({
        ok: false,
        records,
        head,
        keyedFrom,
        brokenAt: { id, at: row.at.toISOString(), action: row.action, reason },
      });
      if (row.prevHash !== prevHash) return broken("its link to the previous record does not match (a record before it was removed, inserted, reordered or altered)");
      const keyId = keyIdOf(row.hashAlg);
      if (keyId === undefined) return broken(`unknown hash algorithm "${row.hashAlg}"`);
      if (keyId === null) {
        // Plain SHA-256 only before the first keyed record: later, it would be a keyed record rewritten by
        // someone without the key.
        if (keyedFrom !== null) return broken("an unkeyed hash after keyed records (a record was rewritten without AUDIT_HMAC_KEY)");
        if (plainAuditHash(row.prevHash, row) !== row.hash) return broken("its content does not match its hash (the record was altered)");
      } else {
        if (keyId !== key.id) {
          return broken(`it was chained under another AUDIT_HMAC_KEY (key id ${keyId}; the configured key's id is ${key.id}): run with the server's AUDIT_HMAC_KEY`);
        }
        if (keyedAuditHash(key, row.prevHash, row) !== row.hash) return broken("its content does not match its keyed hash (the record was altered)");
        keyedFrom ??= id;
      }
      if (expected && ((expected.id !== undefined && expected.id === id) || expected.hash === row.hash)) {
        if (expected.hash !== row.hash || (expected.id !== undefined && expected.id !== id)) {
          return broken(`the recorded head (${expected.id ?? "?"}, ${expected.hash}) does not match this record (${id}, ${row.hash}): history was rewritten`);
        }
        headFound = true;
      }
      prevHash = row.hash;
      afterId = row.id;
      head = { id, hash: row.hash };
      records++;
    }
    if (rows.length < BATCH) break;
  }
  if (expected && !headFound) {
    return {
      ok: false,
      records,
      head,
      keyedFrom,
      brokenAt: {
        id: expected.id ?? "(recorded head)",
        at: "",
        action: "",
        reason: `the recorded head ${expected.hash} is not in the chain (${records} records): history was truncated or rewritten`,
      },
    };
  }
  return { ok: true, records, head, keyedFrom };
}
