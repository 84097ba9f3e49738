// The common case of immediate confirmation is one statement on a connection that owns an audit chain: its
// records land on chains above AUDIT_CHAINS, interleave with records written the long way (a transaction's
// chain) and the whole log still verifies; a head moved under the connection (a record written on its chain
// by anyone else, as a restore would) is read again rather than forking the chain.
import { randomInt, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { auditRecordRow, recordAuditEvent } from "@/lib/audit/record-audit-event";
import { insertAuditRecord } from "@/lib/audit/sql";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { disconnectDb, db } from "@/lib/db/prisma";
import { env, setEnv } from "@/lib/env";
import { storeUnderImmediatePolicy } from "@/lib/immediate-confirm/confirm-at-intake";
import { findImmediatePolicy, forgetImmediatePolicies } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { computeNpiCheckDigit, type TransferRequest } from "@/lib/interface";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { addStore } from "@/lib/stores/add-store";
import { hashRequestContent, prepareTransfer } from "@/lib/transfers/intake";
import { createUser } from "@/lib/users/create-user";
import { freshRequest, uniqueLetters } from "@/tests/support/api";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

let databaseUrl: string;
let partner: CreatedPartner;
let npi: string;

beforeAll(async () => {
  await disconnectDb();
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_immediate_one_statement");
  setEnv({ DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn", AUDIT_CHAINS: "4" });
  forgetImmediatePolicies();
  partner = await createPartner({ name: "One statement", callbackUrl: "https://sender.example/cb", npis: [] });
  const body = `1${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  npi = `${body}${computeNpiCheckDigit(body)}`;
  const { storeId } = await addStore({ name: "One statement store", npi, dea: null, actor: CLI_ACTOR });
  const { userId } = await createUser({
    email: `pic-${randomUUID()}@example.test`,
    password: `pw-${randomUUID()}`,
    role: "pharmacist",
    name: "Jordan Lee, PharmD",
  });
  await setImmediateConfirmPolicy({
    storeRef: storeId,
    change: { enabled: true, ownerUserId: userId, state: "TX", boardRule: "22 TAC 291.34(g)", hourlyCap: 10_000 },
    actor: CLI_ACTOR,
  });
});
afterAll(() => disconnectDb());

/** Atorvastatin, no known allergies, a patient of its own: qualifies. */
function qualifying(): TransferRequest {
  return freshRequest((r) => {
    r.receivingPharmacy.npi = npi;
    r.patient.name.lastName = `Chain${uniqueLetters()}`;
    r.patient.allergyDetails = { allergiesDescriptor: "NO_KNOWN_ALLERGIES", allergies: [] };
  });
}

async function confirmOne(): Promise<string> {
  const request = qualifying();
  const policy = await findImmediatePolicy(npi);
  const prepared = prepareTransfer(partner.partnerId, request, hashRequestContent(request));
  const answer = await storeUnderImmediatePolicy({ request, ...prepared, policy: policy! });
  expect(answer?.metadata.responseType).toBe("CONFIRMED");
  return answer!.metadata.referenceID;
}

type Record = { chain: number; prev_hash: string; hash: string };

async function auditOf(transferId: string): Promise<Record> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record>(
      "SELECT chain, prev_hash, hash FROM audit_events WHERE transfer_id = $1 AND action = 'transfer.confirmed_immediately'",
      [transferId],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  } finally {
    await client.end();
  }
}

describe("immediate confirmation in one statement", () => {
  it("writes each record on a connection's own chain, interleaved with the long way's, and the log verifies", async () => {
    const ids = (
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 4 === 0
            ? recordAuditEvent({ actor: SYSTEM_ACTOR, action: "test.interleaved", details: { i } }).then(() => null)
            : confirmOne(),
        ),
      )
    ).filter((id): id is string => id !== null);
    expect(ids).toHaveLength(30);
    const records = await Promise.all(ids.map(auditOf));
    for (const r of records) expect(r.chain).toBeGreaterThan(env().AUDIT_CHAINS);
    // Each confirmation's decision record and count were written with it.
    expect(await db().immediateConfirmation.count({ where: { transferId: { in: ids } } })).toBe(30);
    const report = await verifyAuditChain();
    expect(report).toMatchObject({ ok: true });
  });

  it("reads a moved head again and links to it", async () => {
    const first = await auditOf(await confirmOne());
    // A record on that chain written by someone else, correctly linked (as a restore of newer history would).
    const foreign = auditRecordRow(
      { actor: CLI_ACTOR, action: "test.foreign_append", details: null },
      { chain: first.chain, prev_hash: first.hash },
    );
    await insertAuditRecord(foreign).execute();
    // Sequential requests reuse the connection that owns the chain (the pool hands out the last one released).
    const next = await auditOf(await confirmOne());
    expect(next.chain).toBe(first.chain);
    expect(next.prev_hash).toBe(foreign.hash);
    expect(await verifyAuditChain()).toMatchObject({ ok: true });
  });
});
