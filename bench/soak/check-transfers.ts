// Checks 1 and 2 after a soak: every acknowledged transfer is stored exactly once, as sent, and nothing is
// stored that was never sent.
import type pg from "pg";
import { hashRequestContent } from "@/lib/transfers/intake";
import type { TransferRequest } from "@/lib/interface";
import { CheckBuilder } from "./check-builder";
import type { SentTransfer } from "./senders";
import { requestDigest } from "./util";

type StoredRow = {
  id: string;
  partner_id: string;
  request_id: string;
  content_hash: string;
  status: string;
  rx_number: string;
  sending_npi: string;
  receiving_npi: string;
  patient_first_name: string;
  patient_last_name: string;
  request: TransferRequest;
};

/** Every stored transfer of the soak's partners, read in pages (each row carries its ~3 KB request). */
async function* storedTransfers(client: pg.Client, partnerIds: string[]): AsyncGenerator<StoredRow[]> {
  let after = "";
  for (;;) {
    const { rows } = await client.query<StoredRow>(
      `SELECT id, partner_id, request_id, content_hash, status::text AS status, rx_number, sending_npi, receiving_npi,
              patient_first_name, patient_last_name, request
         FROM transfers WHERE partner_id = ANY($1) AND id > $2 ORDER BY id LIMIT 2000`,
      [partnerIds, after],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

export async function checkTransfers(client: pg.Client, partnerIds: string[], sent: Map<string, SentTransfer>) {
  const stored = new CheckBuilder("every acknowledged transfer is stored exactly once, as sent");
  const phantoms = new CheckBuilder("no transfer is stored that was never sent");
  const rowsByKey = new Map<string, string[]>();
  const statusById = new Map<string, string>();
  const transferKeyById = new Map<string, string>();
  let storedCount = 0;
  for await (const page of storedTransfers(client, partnerIds)) {
    for (const row of page) {
      storedCount++;
      const key = `${row.partner_id} ${row.request_id}`;
      rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), row.id]);
      statusById.set(row.id, row.status);
      transferKeyById.set(row.id, key);
      const t = sent.get(key);
      phantoms.expect(
        t !== undefined,
        () => `stored ${row.id} (partner ${row.partner_id}, requestID ${row.request_id}) was never sent`,
      );
      if (!t) continue;
      const r = t.request;
      const problems: string[] = [];
      if (requestDigest(row.request) !== t.digest) problems.push("stored request differs from the one sent");
      if (!t.retryCounts.has(row.request.metadata.retryCount ?? -1))
        problems.push(`stored retryCount ${row.request.metadata.retryCount} was never sent`);
      if (row.content_hash !== hashRequestContent(r)) problems.push("content_hash is not the sent request's");
      if (row.rx_number !== r.prescription.rxNumber) problems.push("rx_number");
      if (row.sending_npi !== r.sendingPharmacy.npi) problems.push("sending_npi");
      if (row.receiving_npi !== r.receivingPharmacy.npi) problems.push("receiving_npi");
      if (row.patient_first_name !== r.patient.name.firstName || row.patient_last_name !== r.patient.name.lastName)
        problems.push("patient name");
      if (t.acked && !t.referenceIDs.has(row.id))
        problems.push(
          `row id ${row.id} is not the referenceID the sender was given (${[...t.referenceIDs].join(", ")})`,
        );
      stored.expect(problems.length === 0, () => `${t.requestID} → ${row.id}: ${problems.join("; ")}`);
    }
  }
  let acked = 0;
  let storedNotAcked = 0;
  for (const [key, t] of sent) {
    const ids = rowsByKey.get(key) ?? [];
    if (!t.acked) {
      if (ids.length > 0) storedNotAcked++;
      stored.expect(ids.length <= 1, () => `${t.requestID} (never acknowledged) is stored ${ids.length} times`);
      continue;
    }
    acked++;
    stored.expect(
      ids.length === 1,
      () =>
        `${t.requestID} got a 200 (referenceID ${[...t.referenceIDs].join(", ")}) but is stored ${ids.length} times`,
    );
    stored.expect(
      t.referenceIDs.size === 1,
      () =>
        `${t.requestID}: its 200 answers named ${t.referenceIDs.size} different referenceIDs (${[...t.referenceIDs].join(", ")})`,
    );
  }
  return {
    checks: [stored.done(), phantoms.done()],
    statusById,
    transferKeyById,
    storedCount,
    acked,
    storedNotAcked,
  };
}
