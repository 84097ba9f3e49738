import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import {
  exportFilename,
  parseTransferExportQuery,
  TRANSFER_EXPORT_COLUMNS,
} from "@/lib/transfers/record/export-transfers";

describe("the transfer export's filters", () => {
  it("reads dates as UTC midnights and instants as given, with the defaults every schedule and approved", () => {
    const q = parseTransferExportQuery({ from: "2024-11-23", to: "2026-11-24T05:00:00-05:00" });
    expect(q).toMatchObject({ schedule: "all", outcome: "approved" });
    expect(q.fromDate.toISOString()).toBe("2024-11-23T00:00:00.000Z");
    expect(q.toDate.toISOString()).toBe("2026-11-24T10:00:00.000Z");
    expect(exportFilename(q)).toBe("transfers-2024-11-23-20261124T100000Z.csv");
  });

  it("takes schedules as people write them", () => {
    const schedule = (s: string) =>
      parseTransferExportQuery({ from: "2026-01-01", to: "2026-02-01", schedule: s }).schedule;
    expect(schedule("iv")).toBe("IV");
    expect(schedule("C-II")).toBe("II");
    expect(schedule("CV")).toBe("V");
    expect(schedule("ANY")).toBe("any");
    expect(schedule("")).toBe("all");
  });

  it("names what is wrong", () => {
    const message = (raw: Record<string, string | undefined>) => {
      try {
        parseTransferExportQuery(raw);
      } catch (err) {
        expect(err).toBeInstanceOf(DomainError);
        return (err as DomainError).message;
      }
      throw new Error("accepted");
    };
    expect(message({ from: "2026-02-01", to: "2026-02-01" })).toMatch(/from \(2026-02-01\) must be before to/);
    expect(message({ from: "2026-02-30", to: "2026-03-01" })).toMatch(/^from must be an ISO 8601 date/);
    expect(message({ from: "2026-01-01", to: "2026-03-01", schedule: "VI" })).toMatch(/^schedule must be/);
    expect(message({ from: "2026-01-01", to: "2026-03-01", outcome: "all" })).toMatch(
      /^outcome must be approved, rejected or any/,
    );
    expect(message({ to: "2026-03-01" })).toMatch(/^from is required/);
  });
});

describe("the transfer export's columns", () => {
  it("are the record's element keys, a rejection's reason beside the outcome, each once", () => {
    expect(new Set(TRANSFER_EXPORT_COLUMNS).size).toBe(TRANSFER_EXPORT_COLUMNS.length);
    expect(TRANSFER_EXPORT_COLUMNS.slice(0, 3)).toEqual(["referenceID", "outcome", "rejectionDescription"]);
    for (const key of [
      "prescriberAddress",
      "transferringPhone",
      "receivingPharmacistLicense",
      "refillsAfterFirstFill",
      "totalFillsAuthorized",
    ]) {
      expect(TRANSFER_EXPORT_COLUMNS).toContain(key);
    }
  });
});
