// Queue grouping: consecutive pending transfers of one patient on a page (a mail-order sender often
// moves a whole profile at once) form a group, so the queue can show them together and the review screen can
// go from one to the next. "One patient" is the patient history's rule (get-patient-history.ts): the same
// normalised name and date of birth, or the same sender and sender's patient ID. Decided rows never group.

export type PatientGroup = { position: number; size: number };

export type GroupableRow = {
  pending: boolean;
  nameKey: string;
  dob: string;
  partnerId: string;
  patientReferenceId: string | null;
};

function samePatient(a: GroupableRow, b: GroupableRow): boolean {
  if (a.nameKey !== "|" && a.nameKey === b.nameKey && a.dob === b.dob) return true;
  return a.patientReferenceId !== null && a.partnerId === b.partnerId && a.patientReferenceId === b.patientReferenceId;
}

/** One entry per row: its place in its run of the same patient, or null when it stands alone. */
export function groupConsecutivePatients(rows: readonly GroupableRow[]): (PatientGroup | null)[] {
  const groups: (PatientGroup | null)[] = rows.map(() => null);
  let start = 0;
  while (start < rows.length) {
    let end = start + 1;
    if (rows[start]!.pending) {
      while (end < rows.length && rows[end]!.pending && samePatient(rows[end - 1]!, rows[end]!)) end++;
    }
    const size = end - start;
    if (size > 1) for (let i = start; i < end; i++) groups[i] = { position: i - start + 1, size };
    start = end;
  }
  return groups;
}
