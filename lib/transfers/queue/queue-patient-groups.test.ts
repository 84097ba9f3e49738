import { describe, expect, it } from "vitest";
import { groupConsecutivePatients, type GroupableRow } from "@/lib/transfers/queue/queue-patient-groups";

const row = (over: Partial<GroupableRow>): GroupableRow => ({
  pending: true,
  nameKey: "tanaka|abigail",
  dob: "1980-01-02",
  partnerId: "prt_a",
  patientReferenceId: null,
  ...over,
});

describe("groupConsecutivePatients", () => {
  it("groups a run of the same name and date of birth, and leaves a lone row alone", () => {
    const groups = groupConsecutivePatients([row({}), row({}), row({}), row({ nameKey: "lee|sam" })]);
    expect(groups).toEqual([{ position: 1, size: 3 }, { position: 2, size: 3 }, { position: 3, size: 3 }, null]);
  });

  it("does not group the same name with another date of birth", () => {
    expect(groupConsecutivePatients([row({}), row({ dob: "1981-01-02" })])).toEqual([null, null]);
  });

  it("groups on the same sender's patient ID, not another sender's", () => {
    const a = row({ patientReferenceId: "pat_1" });
    expect(groupConsecutivePatients([a, row({ nameKey: "tanaka|abby", patientReferenceId: "pat_1" })])).toEqual([
      { position: 1, size: 2 },
      { position: 2, size: 2 },
    ]);
    expect(
      groupConsecutivePatients([a, row({ nameKey: "tanaka|abby", patientReferenceId: "pat_1", partnerId: "prt_b" })]),
    ).toEqual([null, null]);
  });

  it("never groups decided rows, nor across one", () => {
    expect(groupConsecutivePatients([row({}), row({ pending: false }), row({})])).toEqual([null, null, null]);
  });
});
