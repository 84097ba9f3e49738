// An audit chain a pooled connection owns: the chain's lock taken at session level (SQL function
// audit_chain_own, migration 20261129075000_audit_owned_chains), so the connection is the chain's only writer
// until it closes and knows the hash its next record links to. A record can then be hashed before the
// statement that writes it, and an audited action is one autocommit statement with no lock to wait for
// (lib/immediate-confirm/confirm-in-one-statement.ts). Owned chains are numbered above AUDIT_CHAINS, which
// audit_chain_acquire hands out per transaction, and at most AUDIT_CHAINS_MAX, which the head log and
// `audit verify` read; they are hashed, verified and logged like every other chain.
//
// The head kept here moves only after a statement that wrote the chain's next record succeeded; the statement
// itself checks that the chain's last record is still that head (ownedHeadMatches), so a stale head (a
// restore, say) writes nothing and is read again rather than forking the chain.
import { sql } from "kysely";
import type pg from "pg";
import { AUDIT_CHAINS_MAX } from "@/lib/audit/audit-hash";
import type { AcquiredChain } from "@/lib/audit/sql";
import { env } from "@/lib/env";

/** The chain a connection owns and the hash its next record links to; null: none was free when it asked. */
const owned = new WeakMap<pg.ClientBase, AcquiredChain | null>();

/** This connection's chain, taken on first use; null when every owned chain is taken (the caller goes the long way). */
export async function ownedChainOf(client: pg.ClientBase): Promise<AcquiredChain | null> {
  const known = owned.get(client);
  if (known !== undefined) return known;
  const lowest = env().AUDIT_CHAINS + 1;
  const { rows } =
    lowest > AUDIT_CHAINS_MAX
      ? { rows: [] }
      : await client.query<AcquiredChain>("SELECT chain, prev_hash FROM audit_chain_own($1::int, $2::int)", [
          lowest,
          AUDIT_CHAINS_MAX,
        ]);
  const chain = rows[0] ?? null;
  owned.set(client, chain);
  return chain;
}

/** After the connection's statement wrote the chain's next record: it links to this one. */
export function advanceOwnedChain(client: pg.ClientBase, hash: string): void {
  const chain = owned.get(client);
  if (chain) owned.set(client, { chain: chain.chain, prev_hash: hash });
}

/** The head read again under the lock this connection holds (the statement found it was not the last record). */
export async function rereadOwnedChain(client: pg.ClientBase): Promise<void> {
  const chain = owned.get(client);
  if (!chain) return;
  const { rows } = await client.query<{ head: string }>("SELECT audit_chain_head($1::int) AS head", [chain.chain]);
  owned.set(client, { chain: chain.chain, prev_hash: rows[0]!.head });
}

/** For a statement writing the owned chain's next record: true while `prevHash` is still the chain's last hash. */
export function ownedHeadMatches(chain: number, prevHash: string) {
  return sql<boolean>`coalesce((SELECT e.hash FROM audit_events e WHERE e.chain = ${chain}::smallint ORDER BY e.id DESC LIMIT 1), ${prevHash}::text) = ${prevHash}::text`;
}
