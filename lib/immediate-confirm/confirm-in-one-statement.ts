// The common case of intake under a store's policy in one autocommit statement (queries/confirm-in-one.ts), on
// a connection that owns an audit chain (lib/audit/owned-chain.ts): no transaction, no lock to wait for, one
// round trip. The audit record is hashed before the statement against the chain's head the connection holds;
// the statement writes the transfer, the decision record, the hour's count and that record together, or, when
// the transfer does not qualify, the transfer RECEIVED with its reason.
//
// The policy and the store's rules are read in the statement's snapshot and must be the cached ones the request
// was judged by: a decision is made under the policy in force when the statement began (a change committed
// later is later). Everything else goes the long way (confirm-at-intake.ts): no owned chain free, near the
// hourly cap, or the chain's head moved under the connection twice.
import { advanceOwnedChain, ownedChainOf, rereadOwnedChain } from "@/lib/audit/owned-chain";
import { auditRecordRow } from "@/lib/audit/record-audit-event";
import { preparedStatement, withPoolClient } from "@/lib/db/pool-query";
import type { CachedPolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import {
  confirmationAudit,
  DUPLICATE_MISS,
  OWNER_MISS,
  REJECTED_MISS,
  type ConfirmAtIntakeOptions,
  type ReviewedRow,
} from "@/lib/immediate-confirm/judging";
import { bucketStart } from "@/lib/immediate-confirm/queries/cap-count";
import { storeAndConfirmInOne, type Verdict } from "@/lib/immediate-confirm/queries/confirm-in-one";
import { whyNotReviewed } from "@/lib/immediate-confirm/qualify-transfer";
import { DUPLICATE_THERAPY_DAYS } from "@/lib/transfers/review";
import { keyArgs } from "@/lib/transfers/queries/intake";
import { confirmedResponseOf, type TransferResponse } from "@/lib/interface";

const HOUR_MS = 3_600_000;

/** Stored (the answer owed, null when a conflict or the key refused it), or nothing stored and why. */
export type OneStatementOutcome = { answer: TransferResponse | null } | "moved" | "long-way";

export async function confirmInOneStatement(
  opts: ConfirmAtIntakeOptions,
  policy: CachedPolicy,
  { row, review }: ReviewedRow,
): Promise<OneStatementOutcome> {
  const { request, response, key } = opts;
  const now = new Date();
  const ownMiss = policy.owner_name
    ? whyNotReviewed({ request, ...review, allowListedAllergies: policy.allow_listed_allergies })
    : OWNER_MISS;
  const confirmed = confirmedResponseOf(request, row.id, now);
  const confirmedJson = JSON.stringify(confirmed);
  return withPoolClient(async (client) => {
    // A head found moved is read again once; moved twice, the long way decides.
    for (let tries = 0; tries < 2; tries++) {
      const chain = await ownedChainOf(client);
      if (!chain) return "long-way";
      const record = auditRecordRow(confirmationAudit(row.id, policy), chain);
      const statement = storeAndConfirmInOne({
        row,
        key: key ? keyArgs(key) : null,
        audit: record,
        npi: request.receivingPharmacy.npi,
        storeId: policy.store_id,
        version: policy.version,
        allowListedAllergies: policy.allow_listed_allergies,
        hourlyCap: policy.hourly_cap,
        ownerName: policy.owner_name,
        ownerLicense: policy.owner_license,
        extraSchedules: JSON.stringify(policy.extra_schedules),
        rxExpiryMonths: policy.rx_expiry_months,
        timeZone: policy.time_zone,
        ownMiss,
        rejectedMiss: REJECTED_MISS,
        duplicateMiss: DUPLICATE_MISS,
        duplicateDays: DUPLICATE_THERAPY_DAYS,
        boundSince: bucketStart(new Date(now.getTime() - HOUR_MS)),
        bucket: bucketStart(now),
        confirmedResponse: confirmedJson,
        confirmedResponseId: confirmed.metadata.responseID,
        decidedAt: now,
      });
      const { rows } = await client.query<{ v: Verdict; id: string | null; confirmed: boolean }>(
        preparedStatement(statement),
      );
      const done = rows[0]!;
      switch (done.v) {
        case "moved":
          return "moved";
        case "near_cap":
          return "long-way";
        case "head":
          await rereadOwnedChain(client);
          continue;
        default:
          if (done.confirmed) advanceOwnedChain(client, record.hash);
          if (!done.id) return { answer: null };
          return { answer: done.confirmed ? confirmed : response };
      }
    }
    return "long-way";
  });
}
