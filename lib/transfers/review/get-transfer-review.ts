// Everything the review screen and the printable transfer record show about one transfer. Reading it is a
// view of patient data, so every call is recorded in the audit log (who, when, from where, which screen).
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { findImmediateConfirmNpis } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import type { AllergyWarning } from "@/lib/drugs";
import { DEFAULT_STORE_RULES, inZone, parseStoreRules, type StoreRulesInZone } from "@/lib/stores/store-rules";
import { reviewDrug, type DrugReview } from "@/lib/transfers/review/drug-review";
import { reviewCheckOptions } from "@/lib/transfers/review/review-check-options";
import { reviewChecks, type ReviewCheck } from "@/lib/transfers/review/review-checks";
import { claimView, decisionView, type ClaimView, type DecisionView } from "@/lib/transfers/review/transfer-state";
import { TransferRequestSchema, type Address, type TransferRequest, type TransferResponse } from "@/lib/interface";
import type { TransferStatus } from "@/generated/prisma/enums";

/** The decision as the live state shows it (transfer-state.ts), and what the record adds. */
export type DecisionRecord = DecisionView & {
  userId: string;
  drugSchedule: string | null;
  scheduleBasis: string | null;
  oneTimeTransferConfirmed: boolean | null;
  allergyWarnings: AllergyWarning[];
  legalExpiry: string | null;
  pharmacistLicense: string | null;
  note: string | null;
  localRxNumber: string | null;
  response: TransferResponse;
};

export type TransferReview = {
  referenceID: string;
  status: TransferStatus;
  receivedAt: string;
  decidedAt: string | null;
  partner: { partnerId: string; name: string };
  /** The request as received; null only if it no longer matches today's wire schema (then see `raw`). */
  request: TransferRequest | null;
  raw: unknown;
  checks: ReviewCheck[];
  /** The drug's schedule, allergy cross-checks, legal expiry and the rules that refuse approval, as of now. */
  drug: DrugReview | null;
  storeRules: StoreRulesInZone;
  claim: ClaimView | null;
  decision: DecisionRecord | null;
  callbackStatus: string | null;
  /** Why the store's immediate-confirmation policy (on now) did not confirm this pending transfer at intake. */
  immediateMiss: string | null;
  store: { name: string; npi: string; dea: string | null; address: Address | null } | null;
  serverTime: string;
};

export type ReviewScreen = "review" | "record" | "api";

export async function getTransferReview(
  referenceID: string,
  ctx: { actor: SessionUser; clientAddress: string | null; screen: ReviewScreen },
): Promise<TransferReview> {
  if (referenceID.length > 64) throw new DomainError("not_found", `No transfer ${referenceID}.`);
  const row = await db().transfer.findUnique({
    where: { id: referenceID },
    include: {
      partner: { select: { id: true, name: true } },
      claimedBy: { select: { id: true, name: true } },
      decision: true,
      callback: { select: { status: true } },
    },
  });
  if (!row) throw new DomainError("not_found", `No transfer ${referenceID}.`);

  // The view's audit record and the store's rules do not wait for each other.
  const [, store] = await Promise.all([
    recordAuditEvent({
      actor: userActor(ctx.actor, ctx.clientAddress),
      action: "transfer.viewed",
      transferId: referenceID,
      details: { screen: ctx.screen },
    }),
    db().store.findUnique({ where: { npi: row.receivingNpi } }),
  ]);

  const now = new Date();
  const parsed = TransferRequestSchema.safeParse(row.request);
  const request = parsed.success ? parsed.data : null;
  const storeRules = store ? inZone(parseStoreRules(store), store.timeZone) : DEFAULT_STORE_RULES;
  const drug = request ? reviewDrug(request, storeRules, now) : null;
  const immediateMiss =
    row.status === "RECEIVED" && row.immediateMiss && (await findImmediateConfirmNpis()).has(row.receivingNpi)
      ? row.immediateMiss
      : null;

  return {
    referenceID: row.id,
    status: row.status,
    receivedAt: row.receivedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    partner: { partnerId: row.partner.id, name: row.partner.name },
    request,
    raw: row.request,
    drug,
    storeRules,
    checks:
      request && drug
        ? reviewChecks(request, drug, reviewCheckOptions())
        : [
            {
              id: "schema",
              title: "Stored request",
              status: "fail",
              detail: "The stored request no longer matches the wire schema: read the raw request.",
            },
          ],
    claim: claimView(row, now),
    decision: row.decision
      ? {
          ...decisionView(row.decision),
          userId: row.decision.userId,
          drugSchedule: row.decision.drugSchedule,
          scheduleBasis: row.decision.scheduleBasis,
          oneTimeTransferConfirmed: row.decision.oneTimeTransferConfirmed,
          allergyWarnings: (row.decision.allergyWarnings as AllergyWarning[] | null) ?? [],
          legalExpiry: row.decision.legalExpiry?.toISOString().slice(0, 10) ?? null,
          pharmacistLicense: row.decision.pharmacistLicense,
          note: row.decision.note,
          localRxNumber: row.decision.localRxNumber,
          response: row.decision.response as TransferResponse,
        }
      : null,
    callbackStatus: row.callback?.status ?? null,
    immediateMiss,
    store: store
      ? { name: store.name, npi: store.npi, dea: store.dea, address: (store.address as Address | null) ?? null }
      : null,
    serverTime: now.toISOString(),
  };
}
