// Walks the audit log in order and recomputes every hash: the first record whose content, algorithm, or
// link to the record before it in its chain does not match is reported (an edit, an insertion, a removal,
// A reordering, a move to another chain, a downgrade to the unkeyed hash). Records written before chains existed form
// chain 0; later ones are spread over chains 1..n (record-audit-event.ts says why), each starting from
// chain 0's last record. Heads recorded earlier in the server's log (`--head`) must still be in the log:
// one record's hash, or the set of every chain's head, which also catches the loss of one chain's tail.
import {
  AUDIT_CHAINS_MAX,
  auditKey,
  chainedAuditHash,
  GENESIS_HASH,
  isChainsAlg,
  keyedAuditHash,
  keyIdOf,
  plainAuditHash,
} from "@/lib/audit/audit-hash";
import { db } from "@/lib/db/prisma";
import { selectChainHeads } from "@/lib/audit/sql";

export type AuditChainHead = { id: string; hash: string };
/** One chain's last record, as the server logs it in the set of heads ("chain:id:hash", comma-separated). */
export type ChainHead = { chain: number; id: string; hash: string };

type Report = { records: number; head: AuditChainHead | null; heads: string; keyedFrom: string | null };
export type AuditChainReport =
  | (Report & { ok: true })
  | (Report & { ok: false; brokenAt: { id: string; at: string; action: string; reason: string } });

export type VerifyOptions = {
  /** Recorded earlier ("audit chain head" log line): one record's hash (and id), or the set of heads. */
  expectedHead?: { hash: string; id?: string } | { heads: ChainHead[] };
};

const BATCH = 2000;

export function formatChainHeads(heads: ChainHead[]): string {
  return heads.map((h) => `${h.chain}:${h.id}:${h.hash}`).join(",");
}

/** The set of heads from its logged form; null when it is not one. */
export function parseChainHeads(text: string): ChainHead[] | null {
  const heads: ChainHead[] = [];
  for (const part of text.split(",")) {
    const m = /^(\d{1,5}):(\d{1,19}):([0-9a-f]{64})$/.exec(part);
    if (!m) return null;
    heads.push({ chain: Number(m[1]), id: m[2]!, hash: m[3]! });
  }
  return heads;
}

/** The last record's id and hash, and every chain's last record (what the server logs). */
export async function findAuditChainHead(): Promise<(AuditChainHead & { heads: string }) | null> {
  // One index probe per chain ((chain, id) index) rather than a scan of the log.
  const rows = (await selectChainHeads(AUDIT_CHAINS_MAX).execute()).map((r) => ({ ...r, id: BigInt(r.id) }));
  if (rows.length === 0) return null;
  const heads = rows.map((r) => ({ chain: r.chain, id: r.id.toString(), hash: r.hash }));
  const last = rows.reduce((a, b) => (b.id > a.id ? b : a));
  return { id: last.id.toString(), hash: last.hash, heads: formatChainHeads(heads) };
}

export async function verifyAuditChain(opts: VerifyOptions = {}): Promise<AuditChainReport> {
  const key = auditKey();
  const expected = opts.expectedHead;
  const expectedOne = expected && "hash" in expected ? expected : undefined;
  const expectedSet = new Map((expected && "heads" in expected ? expected.heads : []).map((h) => [h.id, h]));
  let legacyHash = GENESIS_HASH; // chain 0's last hash: where every other chain starts
  const chainHashes = new Map<number, string>();
  const lastOf = new Map<number, ChainHead>();
  let afterId = BigInt(0);
  let records = 0;
  let head: AuditChainHead | null = null;
  let keyedFrom: string | null = null;
  let headFound = false;
  const report = (): Report => ({
    records,
    head,
    heads: formatChainHeads([...lastOf.values()].sort((a, b) => a.chain - b.chain)),
    keyedFrom,
  });
  for (;;) {
    const rows = await db().auditEvent.findMany({
      where: { id: { gt: afterId } },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    for (const row of rows) {
      const id = row.id.toString();
      const broken = (reason: string): AuditChainReport => ({
        ok: false,
        ...report(),
        brokenAt: { id, at: row.at.toISOString(), action: row.action, reason },
      });
      const chain = row.chain;
      const prevHash = chain === 0 ? legacyHash : (chainHashes.get(chain) ?? legacyHash);
      if (row.prevHash !== prevHash)
        return broken(
          "its link to the previous record does not match (a record before it was removed, inserted, reordered or altered)",
        );
      const keyId = keyIdOf(row.hashAlg);
      if (keyId === undefined) return broken(`unknown hash algorithm "${row.hashAlg}"`);
      if (keyId === null) {
        // Plain SHA-256 only before the first keyed record: later, it would be a keyed record rewritten by
        // someone without the key.
        if (keyedFrom !== null)
          return broken("an unkeyed hash after keyed records (a record was rewritten without AUDIT_HMAC_KEY)");
        if (plainAuditHash(row.prevHash, row) !== row.hash)
          return broken("its content does not match its hash (the record was altered)");
      } else if (keyId !== key.id) {
        return broken(
          `it was chained under another AUDIT_HMAC_KEY (key id ${keyId}; the configured key's id is ${key.id}): run with the server's AUDIT_HMAC_KEY`,
        );
      }
      if (chain === 0) {
        if (chainHashes.size > 0)
          return broken("a record of the single chain after records of the partitioned chains (inserted or reordered)");
        if (isChainsAlg(row.hashAlg)) return broken("a partitioned chain's hash in chain 0 (the record was moved)");
        if (keyId !== null && keyedAuditHash(key, row.prevHash, row) !== row.hash)
          return broken("its content does not match its keyed hash (the record was altered)");
        legacyHash = row.hash;
      } else {
        if (!isChainsAlg(row.hashAlg))
          return broken(
            `chain ${chain} holds a record hashed for the single chain (the record was moved or rewritten)`,
          );
        if (chainedAuditHash(key, chain, row.prevHash, row) !== row.hash)
          return broken("its content does not match its keyed hash (the record was altered or moved to another chain)");
        chainHashes.set(chain, row.hash);
      }
      if (keyId !== null) keyedFrom ??= id;
      if (expectedOne && ((expectedOne.id !== undefined && expectedOne.id === id) || expectedOne.hash === row.hash)) {
        if (expectedOne.hash !== row.hash || (expectedOne.id !== undefined && expectedOne.id !== id)) {
          return broken(
            `the recorded head (${expectedOne.id ?? "?"}, ${expectedOne.hash}) does not match this record (${id}, ${row.hash}): history was rewritten`,
          );
        }
        headFound = true;
      }
      const recorded = expectedSet.get(id);
      if (recorded) {
        if (recorded.hash !== row.hash || recorded.chain !== chain) {
          return broken(
            `the recorded head of chain ${recorded.chain} (${id}, ${recorded.hash}) does not match this record (chain ${chain}, ${row.hash}): history was rewritten`,
          );
        }
        expectedSet.delete(id);
      }
      afterId = row.id;
      head = { id, hash: row.hash };
      lastOf.set(chain, { chain, id, hash: row.hash });
      records++;
    }
    if (rows.length < BATCH) break;
  }
  const missing =
    expectedOne && !headFound
      ? { id: expectedOne.id ?? "(recorded head)", hash: expectedOne.hash, chain: null }
      : [...expectedSet.values()][0];
  if (missing) {
    const which = missing.chain === null ? "" : ` of chain ${missing.chain}`;
    return {
      ok: false,
      ...report(),
      brokenAt: {
        id: missing.id,
        at: "",
        action: "",
        reason: `the recorded head${which} ${missing.hash} is not in the chain (${records} records): history was truncated or rewritten`,
      },
    };
  }
  return { ok: true, ...report() };
}
