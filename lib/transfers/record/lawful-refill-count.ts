// The lawful refill count as every output states it: the legal record (and so the CSV export), the FHIR
// MedicationRequest (the dispensing hand-off and the integration feed). One computation, `lawfulRefills` in
// lib/drugs, which the review screen and the approve dialog use too; this module words the sender's number
// beside the lawful one, for the schedule recorded (read with scheduleOfText, however it was spelled). As of
// the approval: a Schedule III/IV prescription six months old is never approved (drug-review.ts), so none
// here has lapsed.
import { lawfulRefills, type LawfulRefills, type Schedule } from "@/lib/drugs";
import type { TransferRequest } from "@/lib/interface";

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
