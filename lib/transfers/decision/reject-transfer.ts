// Reject: the sender gets ERROR with the pharmacist's error type and description (what the sender's
// staff read); the prescription's live key is freed so the sender may send it again once corrected.
import type { SessionUser } from "@/lib/auth/require-user";
import { decideTransfer, type DecisionResult } from "@/lib/transfers/decision/decide-transfer";
import type { RejectInput } from "@/lib/transfers/decision/decision-inputs";

export function rejectTransfer(input: {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
  rejection: RejectInput;
}): Promise<DecisionResult> {
  return decideTransfer({ ...input, decision: { kind: "reject", ...input.rejection } });
}
