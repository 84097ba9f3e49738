// Audit tampering through SQL, as the database's owner could do it (disabling the append-only triggers):
// an edit, a deletion, a reordering, a rewrite with recomputed plain SHA-256 hashes, and a truncation are
// each detected by `audit verify` (the CLI, run for real, and the lib function). TRUNCATE itself is refused
// by a trigger; a chain head the server logged earlier is checked with `audit verify --head`.
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { auditKey, keyedAuditHash } from "@/lib/audit/audit-hash";
import { namedActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { findAuditChainHead, verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { canonicalJson } from "@/lib/canonical-json";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { runCli } from "@/tests/support/cli";
import { createMigratedDatabase } from "@/tests/support/database";
import { startTestServer, TEST_SECRETS } from "@/tests/support/server";

type Row = { id: string; hash: string };

/** A database of its own with `count` audit records; this process's client points at it. */
async function chainOf(count: number): Promise<{ url: string; rows: Row[] }> {
  await disconnectDb();
  const url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_tamper");
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  for (let i = 0; i < count; i++) {
    await recordAuditEvent({
      actor: namedActor("test", "192.0.2.1"),
      action: "test.event",
      details: { i, nested: { b: 1, a: [2, 3] } },
    });
  }
  const rows = await sql<Row>(url, "SELECT id::text AS id, hash FROM audit_events ORDER BY id");
  return { url, rows };
}

async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** What the owner of the tables can do: switch the append-only triggers off for one transaction. */
async function asOwnerWithoutTriggers(url: string, statements: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("ALTER TABLE audit_events DISABLE TRIGGER USER");
    await statements(client);
    await client.query("ALTER TABLE audit_events ENABLE TRIGGER USER");
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}

const cliEnv = (url: string) => ({ DATABASE_URL: url, ...TEST_SECRETS });

async function expectBrokenAt(url: string, id: string, reason: RegExp): Promise<void> {
  const report = await verifyAuditChain();
  expect(report.ok).toBe(false);
  if (!report.ok) {
    expect(report.brokenAt.id).toBe(id);
    expect(report.brokenAt.reason).toMatch(reason);
  }
  const cli = await runCli(["audit", "verify"], cliEnv(url));
  expect(cli.code, cli.stderr).toBe(1);
  expect(cli.json.ok).toBe(false);
  expect((cli.json.brokenAt as { id: string }).id).toBe(id);
}

afterAll(async () => {
  await disconnectDb();
});

describe("audit tampering through SQL", () => {
  it("new records are keyed (HMAC-SHA256 under AUDIT_HMAC_KEY) and an intact chain verifies", async () => {
    const { url, rows } = await chainOf(4);
    const algs = await sql<{ hash_alg: string }>(url, "SELECT DISTINCT hash_alg FROM audit_events");
    expect(algs.map((a) => a.hash_alg)).toEqual([expect.stringMatching(/^hmac-sha256-chains:[0-9a-f]{16}$/)]);
    const cli = await runCli(["audit", "verify"], cliEnv(url));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toMatchObject({ ok: true, records: 4, head: { id: rows[3]!.id, hash: rows[3]!.hash } });
  });

  it("an edited record is detected", async () => {
    const { url, rows } = await chainOf(6);
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query(`UPDATE audit_events SET client_address = '203.0.113.9' WHERE id = $1`, [rows[2]!.id]);
    });
    await expectBrokenAt(url, rows[2]!.id, /altered/);
  });

  it("a deleted record is detected", async () => {
    const { url, rows } = await chainOf(6);
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query("DELETE FROM audit_events WHERE id = $1", [rows[2]!.id]);
    });
    await expectBrokenAt(url, rows[3]!.id, /link to the previous record/);
  });

  it("reordered records are detected", async () => {
    const { url, rows } = await chainOf(6);
    // Swap two records' contents (and hashes) between their ids.
    await asOwnerWithoutTriggers(url, async (c) => {
      const [a, b] = [rows[1]!.id, rows[3]!.id];
      await c.query("UPDATE audit_events SET hash = hash || '-' WHERE id IN ($1, $2)", [a, b]); // free the unique hashes
      await c.query(
        `UPDATE audit_events t SET at = s.at, actor = s.actor, action = s.action, details = s.details, client_address = s.client_address,
                prev_hash = s.prev_hash, hash = rtrim(s.hash, '-'), hash_alg = s.hash_alg
           FROM audit_events s WHERE (t.id, s.id) IN (($1::bigint, $2::bigint), ($2::bigint, $1::bigint))`,
        [a, b],
      );
    });
    await expectBrokenAt(url, rows[1]!.id, /link to the previous record/);
  });

  it("a record rewritten with a recomputed plain SHA-256 chain (no key needed) is detected as a downgrade", async () => {
    const { url, rows } = await chainOf(6);
    // The owner edits record 3 and re-chains it and everything after it with the unkeyed algorithm.
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query(`UPDATE audit_events SET actor = 'mallory' WHERE id = $1`, [rows[2]!.id]);
      await rechainPlain(
        c,
        rows[1]!.hash,
        rows.slice(2).map((r) => r.id),
      );
    });
    await expectBrokenAt(url, rows[2]!.id, /unkeyed hash after keyed records/);
  });

  it("TRUNCATE is refused by a trigger; a truncation by the owner is detected against a recorded head", async () => {
    const { url, rows } = await chainOf(5);
    await expect(sql(url, "TRUNCATE audit_events")).rejects.toThrow(/append-only: TRUNCATE refused/);
    await expect(sql(url, `UPDATE audit_events SET actor = 'x' WHERE id = $1`, [rows[0]!.id])).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(sql(url, `DELETE FROM audit_events WHERE id = $1`, [rows[0]!.id])).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    expect(await sql<{ n: string }>(url, "SELECT count(*) AS n FROM audit_events")).toEqual([{ n: "5" }]);

    const head = (await findAuditChainHead())!; // what the server writes to its log every hour
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query("TRUNCATE audit_events");
    });
    // An empty log, or a new one started after the truncation, is a valid chain on its own...
    await recordAuditEvent({ actor: namedActor("test"), action: "test.after_truncate" });
    expect((await verifyAuditChain()).ok).toBe(true);
    // ...but not one that holds the head recorded before.
    const cli = await runCli(["audit", "verify", "--head", head.hash, "--head-id", head.id], cliEnv(url));
    expect(cli.code, cli.stderr).toBe(1);
    expect((cli.json.brokenAt as { reason: string }).reason).toMatch(
      /recorded head .* is not in the chain.*truncated or rewritten/,
    );
  });

  it("a whole history rewritten as plain SHA-256 verifies on its own, but not against a recorded head", async () => {
    const { url, rows } = await chainOf(4);
    const head = (await findAuditChainHead())!;
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query(`UPDATE audit_events SET actor = 'mallory' WHERE id = $1`, [rows[1]!.id]);
      await rechainPlain(
        c,
        "0".repeat(64),
        rows.map((r) => r.id),
        true,
      );
    });
    expect((await verifyAuditChain()).ok).toBe(true);
    const cli = await runCli(["audit", "verify", "--head", head.hash], cliEnv(url));
    expect(cli.code, cli.stderr).toBe(1);
    expect((cli.json.brokenAt as { reason: string }).reason).toMatch(/not in the chain/);
  });

  it("audit verify --head accepts a head recorded earlier that is still in the chain, and checks --head-id", async () => {
    const { url } = await chainOf(3);
    const head = (await findAuditChainHead())!;
    for (let i = 0; i < 3; i++) await recordAuditEvent({ actor: namedActor("test"), action: "test.later" });
    const ok = await runCli(["audit", "verify", "--head", head.hash, "--head-id", head.id], cliEnv(url));
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ ok: true, records: 6 });
    const wrongId = await runCli(
      ["audit", "verify", "--head", head.hash, "--head-id", String(Number(head.id) + 1)],
      cliEnv(url),
    );
    expect(wrongId.code).toBe(1);
    expect((wrongId.json.brokenAt as { reason: string }).reason).toMatch(/does not match this record/);
    const usage = await runCli(["audit", "verify", "--head", "not-a-hash"], cliEnv(url));
    expect(usage.code).toBe(2);
  });

  it("a CLI run with another AUDIT_HMAC_KEY than the log's is refused with a clear message", async () => {
    const { url } = await chainOf(2);
    const cli = await runCli(["partner", "list"], { ...cliEnv(url), AUDIT_HMAC_KEY: "another-key-".repeat(4) });
    expect(cli.code).toBe(1);
    expect((cli.json.error as { message: string }).message).toMatch(
      /chained under another AUDIT_HMAC_KEY .*must share AUDIT_HMAC_KEY/,
    );
  });

  it("the production server writes the chain head to its log at start and at shutdown", async () => {
    const { url, rows } = await chainOf(2);
    await disconnectDb();
    const server = await startTestServer({ databaseUrl: url, env: { LOG_LEVEL: "info", RUN_WORKER: "false" } });
    await server.stop();
    const heads = server
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"audit chain head"'))
      .map((l) => JSON.parse(l) as { id: string; hash: string; reason: string });
    expect(
      heads.map((h) => h.reason),
      server.output(),
    ).toEqual(["start", "shutdown"]);
    for (const h of heads)
      expect(h).toMatchObject({ id: rows[1]!.id, hash: rows[1]!.hash, heads: `1:${rows[1]!.id}:${rows[1]!.hash}` });
  });
});

describe("audit chains written at the same time", () => {
  /** Records from `writers` transactions open at once, two records each: they take different chains. */
  async function concurrentChains(
    writers: number,
  ): Promise<{ url: string; rows: { id: string; chain: number; hash: string }[] }> {
    const { url } = await chainOf(2);
    let arrived = 0;
    let release!: () => void;
    const allIn = new Promise<void>((resolve) => (release = resolve));
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        db().$transaction(async (tx) => {
          await recordAuditEvent({ actor: namedActor("test"), action: "test.concurrent", details: { w, n: 1 } }, tx);
          if (++arrived === writers) release();
          await allIn; // every writer holds its chain's lock until all have written once
          await recordAuditEvent({ actor: namedActor("test"), action: "test.concurrent", details: { w, n: 2 } }, tx);
        }),
      ),
    );
    await recordAuditEvent({ actor: namedActor("test"), action: "test.after" });
    const rows = await sql<{ id: string; chain: number; hash: string }>(
      url,
      "SELECT id::text AS id, chain, hash FROM audit_events ORDER BY id",
    );
    return { url, rows };
  }

  it("transactions open at once write to separate chains without waiting, and every chain verifies", async () => {
    const { rows } = await concurrentChains(3);
    expect(new Set(rows.map((r) => r.chain))).toEqual(new Set([1, 2, 3])); // without per-chain locks this would deadlock-wait
    const report = await verifyAuditChain();
    expect(report).toMatchObject({ ok: true, records: 9 });
    expect(report.heads.split(",")).toHaveLength(3);
  });

  it("records from before the chains (chain 0) still verify, the chains link to its last record, and losing its tail is detected", async () => {
    const { url } = await chainOf(0);
    const key = auditKey();
    let prev = "0".repeat(64);
    const legacyIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Written as the single keyed chain wrote them (hash_alg hmac-sha256:<key id>, chain 0).
      const event = {
        at: new Date(Date.now() - 60_000 + i),
        userId: null,
        actor: "test",
        action: "test.legacy",
        transferId: null,
        clientAddress: null,
        details: { i },
      };
      const hash = keyedAuditHash(key, prev, event);
      const [row] = await sql<{ id: string }>(
        url,
        "INSERT INTO audit_events (at, actor, action, details, prev_hash, hash, hash_alg) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id",
        [event.at, event.actor, event.action, JSON.stringify(event.details), prev, hash, key.alg],
      );
      legacyIds.push(row!.id);
      prev = hash;
    }
    await recordAuditEvent({ actor: namedActor("test"), action: "test.after_migration" });
    const [first] = await sql<{ chain: number; prev_hash: string }>(
      url,
      "SELECT chain, prev_hash FROM audit_events WHERE action = 'test.after_migration'",
    );
    expect(first).toEqual({ chain: 1, prev_hash: prev });
    expect(await verifyAuditChain()).toMatchObject({ ok: true, records: 4 });
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query("DELETE FROM audit_events WHERE id = $1", [legacyIds[2]]);
    });
    const report = await verifyAuditChain();
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.brokenAt.reason).toMatch(/link to the previous record/);
  });

  it("a record moved to another chain is detected", async () => {
    const { url, rows } = await concurrentChains(2);
    const victim = rows.find((r) => r.chain === 2)!;
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query("UPDATE audit_events SET chain = 1 WHERE id = $1", [victim.id]);
    });
    await expectBrokenAt(url, victim.id, /link to the previous record|moved/);
  });

  it("the loss of one chain's tail is detected against the recorded set of heads", async () => {
    const { url, rows } = await concurrentChains(2);
    const heads = (await findAuditChainHead())!.heads;
    const tail = rows.filter((r) => r.chain === 2).at(-1)!;
    await asOwnerWithoutTriggers(url, async (c) => {
      await c.query("DELETE FROM audit_events WHERE id = $1", [tail.id]);
    });
    expect((await verifyAuditChain()).ok).toBe(true); // the chain itself cannot show a missing tail...
    const cli = await runCli(["audit", "verify", "--head", heads], cliEnv(url)); // ...the logged heads can
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.json.brokenAt).toMatchObject({
      id: tail.id,
      reason: expect.stringMatching(/recorded head of chain 2 .* is not in the chain/),
    });
    const later = await runCli(["audit", "verify", "--head", heads.replace(tail.hash, "f".repeat(64))], cliEnv(url));
    expect(later.code).toBe(1);
  });

  it("an intact log verifies against heads recorded earlier, while records keep being added", async () => {
    const { url } = await concurrentChains(2);
    const heads = (await findAuditChainHead())!.heads;
    await recordTwoMoreAtOnce();
    const ok = await runCli(["audit", "verify", "--head", heads], cliEnv(url));
    expect(ok.code, ok.stderr).toBe(0);
    const usage = await runCli(["audit", "verify", "--head", "1:2:xyz"], cliEnv(url));
    expect(usage.code).toBe(2);
  });

  async function recordTwoMoreAtOnce(): Promise<void> {
    await Promise.all(
      [0, 1].map((i) => recordAuditEvent({ actor: namedActor("test"), action: "test.later", details: { i } })),
    );
  }
});

/** Recomputes the legacy (unkeyed) hashes of `ids` in order, starting from `prevHash`, as an attacker can. */
async function rechainPlain(c: pg.Client, prevHash: string, ids: string[], chainZero = false): Promise<void> {
  let prev = prevHash;
  for (const id of ids) {
    const { rows } = await c.query<{
      at: Date;
      user_id: string | null;
      actor: string;
      action: string;
      transfer_id: string | null;
      client_address: string | null;
      details: unknown;
    }>("SELECT at, user_id, actor, action, transfer_id, client_address, details FROM audit_events WHERE id = $1", [id]);
    const r = rows[0]!;
    const hash = createHash("sha256")
      .update(
        canonicalJson([
          prev,
          r.at.toISOString(),
          r.user_id,
          r.actor,
          r.action,
          r.transfer_id,
          r.client_address,
          r.details ?? null,
        ]),
      )
      .digest("hex");
    // A whole rewrite goes into chain 0, where unkeyed records are allowed (in chains 1..n they are refused).
    await c.query(
      `UPDATE audit_events SET prev_hash = $2, hash = $3, hash_alg = 'sha256'${chainZero ? ", chain = 0" : ""} WHERE id = $1`,
      [id, prev, hash],
    );
    prev = hash;
  }
}
