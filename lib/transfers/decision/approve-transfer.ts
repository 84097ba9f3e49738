// Approve: the sender gets CONFIRMED with the prescription as transferred; the decision row (pharmacist's
// name, time, schedule, local Rx number) is the receiving pharmacy's immutable legal transfer record.
import type { SessionUser } from "@/lib/auth/require-user";
import { decideTransfer, type DecisionResult } from "@/lib/transfers/decision/decide-transfer";
import type { ApproveInput } from "@/lib/transfers/decision/decision-inputs";

export function approveTransfer(input: {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
  approval: ApproveInput;
}): Promise<DecisionResult> {
  return decideTransfer({ ...input, decision: { kind: "approve", ...input.approval } });
}
