// The lawful refill count as every output states it: the legal record (and so the CSV export), the FHIR
// MedicationRequest (the dispensing hand-off and the integration feed). One computation, `lawfulRefills` in
// lib/drugs, which the review screen and the approve dialog use too; this module only reads the schedule the
// decision recorded and words the sender's number beside the lawful one. As of the approval: a Schedule
// III/IV prescription six months old is never approved (drug-review.ts), so none here has lapsed.
import { lawfulRefills, scheduleOfText, type LawfulRefills, type Schedule } from "@/lib/drugs";
import type { TransferRequest } from "@/lib/interface";

/** A recorded schedule, the decision's ("CIV") or the intake's ("IV", "none", "unknown"), as a Schedule or null. */
export function scheduleOfRecord(recorded: string | null | undefined): Schedule | null {
  return scheduleOfText(recorded);
}

export function lawfulRefillCount(request: TransferRequest, schedule: Schedule | null): LawfulRefills {
  const rx = request.prescription;
  return lawfulRefills({
    schedule,
    refillsAuthorized: rx.refillsAuthorized,
    refillsRemaining: rx.refillsRemaining,
    filled: rx.firstFilledDate !== null,
  });
}

/** What the sender sent, when it is not the lawful number: said beside it, never passed on as lawful. */
export function senderRefillsNote(r: LawfulRefills, schedule: Schedule | null): string | null {
  if (!r.capped && r.refillsRemaining === r.senderRefillsRemaining) return null;
  return `The transferring pharmacy sent ${r.writtenAfterFirst} refills after the first fill and ${r.senderRefillsRemaining} remaining; federal law allows at most ${r.lawfulAfterFirst} refills of this Schedule ${schedule ?? "?"} prescription (21 CFR 1306.22), so ${r.refillsRemaining} lawfully ${r.refillsRemaining === 1 ? "remains" : "remain"}.`;
}
