// The transfer log for inspections over real HTTP and the CLI, against real PostgreSQL: decided transfers of a
// period as CSV with every element of the legal record as a column, filtered by schedule (the decision's, or the
// intake's for a rejection) and outcome; spreadsheet formulas neutralised; the export audited with its filters and
// row count; bad filters a 400 problem+json; pharmacists and admins only; the CLI writes the same CSV.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { approveTransfer, rejectTransfer } from "@/lib/transfers/decision";
import { EXPORT_FIRST_BATCH, TRANSFER_EXPORT_COLUMNS } from "@/lib/transfers/record";
import type { TransferRequest } from "@/lib/interface";
import { setUserLicenseNumber } from "@/lib/users/set-user-license-number";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const ROOT = path.resolve(import.meta.dirname, "../..");
const LICENSE = "RPH-0042 PA";
const FORMULA_NOTE = '=HYPERLINK("http://evil.example","click")';

let partner: CreatedPartner;
let pharmacist: TestUser;
let admin: TestUser;
let pharmacistCookie: string;
let adminCookie: string;
let from: string;
let to: string;
const ids = { zolpidemApproved: "", zolpidemRejected: "", atorvastatinApproved: "" };
const tmp = mkdtempSync(path.join(tmpdir(), "transfer-export-"));

const actor = (u: TestUser) => ({ id: u.id, email: u.email, name: u.name, role: u.role });

async function receive(medicationName: string, change?: (r: TransferRequest) => void): Promise<string> {
  const request = freshRequest((r) => {
    r.prescription.medicationName = medicationName;
    r.prescription.drugStrength = "10 mg";
    change?.(r);
  });
  const answer = await send(baseUrl, { body: request, authorization: senderKey(partner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.metadata.referenceID;
}

/** RFC 4180, as lib/csv.ts writes it: every field quoted, quotes doubled, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field === "" && row.length === 0, "CSV ends with CRLF").toBe(true);
  return rows;
}

type Export = { status: number; headers: Headers; text: string; header: string[]; rows: Record<string, string>[] };

async function exportCsv(query: Record<string, string>, cookie: string | null = pharmacistCookie): Promise<Export> {
  const answer = await dashboardFetch<unknown>(baseUrl, `/api/transfers/export?${new URLSearchParams(query)}`, {
    cookie,
    headers: { accept: "text/csv" },
  });
  if (answer.status !== 200)
    return { status: answer.status, headers: answer.headers, text: answer.text, header: [], rows: [] };
  const [header = [], ...lines] = parseCsv(answer.text);
  return {
    status: answer.status,
    headers: answer.headers,
    text: answer.text,
    header,
    rows: lines.map((cells) => Object.fromEntries(header.map((key, i) => [key, cells[i] ?? ""]))),
  };
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string }> {
  const options = {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
    maxBuffer: 64 * 1024 * 1024,
  };
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", ...args],
      options,
    );
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

const referenceIDs = (e: Export) => e.rows.map((r) => r.referenceID).sort();

beforeAll(async () => {
  partner = await createTestPartner("Export");
  pharmacist = await createTestUser("pharmacist", "Rosa Export, PharmD");
  await setUserLicenseNumber({ userId: pharmacist.id, licenseNumber: LICENSE, actor: SYSTEM_ACTOR });
  admin = await createTestUser("admin", "Export Admin");
  pharmacistCookie = await signedInCookie(baseUrl, pharmacist);
  adminCookie = await signedInCookie(baseUrl, admin);
  // Integration files run one after another: every decision from here on is this file's.
  from = new Date(Date.now() - 1000).toISOString();

  ids.zolpidemApproved = await receive("Zolpidem Tartrate");
  ids.zolpidemRejected = await receive("Zolpidem Tartrate");
  ids.atorvastatinApproved = await receive("Atorvastatin Calcium");
  await approveTransfer({
    transferId: ids.zolpidemApproved,
    actor: actor(pharmacist),
    clientAddress: null,
    approval: { oneTimeTransferConfirmed: true, localRxNumber: "R-7001", note: FORMULA_NOTE },
  });
  await rejectTransfer({
    transferId: ids.zolpidemRejected,
    actor: actor(pharmacist),
    clientAddress: null,
    rejection: {
      errorType: "INVALID_INFO",
      description: "prescription.sig is incomplete: please resend with directions",
    },
  });
  await approveTransfer({
    transferId: ids.atorvastatinApproved,
    actor: actor(pharmacist),
    clientAddress: null,
    approval: { localRxNumber: "R-7002" },
  });
  // A transfer still pending is never in the log.
  await receive("Zolpidem Tartrate");
  to = new Date(Date.now() + 60_000).toISOString();
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the transfer log (GET /api/transfers/export)", () => {
  it("streams a CSV attachment whose columns are the record's elements, one row per decided transfer", async () => {
    const all = await exportCsv({ from, to, outcome: "any" });
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const stamp = (iso: string) => iso.replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
    expect(all.headers.get("content-disposition")).toBe(
      `attachment; filename="transfers-${stamp(from)}-${stamp(to)}.csv"`,
    );
    expect(all.header).toEqual([...TRANSFER_EXPORT_COLUMNS]);
    for (const key of [
      "referenceID",
      "outcome",
      "transferDateTime",
      "schedule",
      "oneTimeTransferConfirmed",
      "receivingPharmacist",
      "receivingPharmacistLicense",
      "transferringPharmacy",
      "transferringAddress",
      "transferringPhone",
      "transferringDea",
      "transferringRxNumber",
      "transferringPharmacist",
      "patientAddress",
      "prescriberName",
      "prescriberAddress",
      "prescriberDea",
      "writtenDate",
      "refillsAfterFirstFill",
      "totalFillsAuthorized",
      "firstFilledDate",
      "refillsRemaining",
      "rejectionDescription",
    ]) {
      expect(all.header, key).toContain(key);
    }
    expect(referenceIDs(all)).toEqual([ids.atorvastatinApproved, ids.zolpidemApproved, ids.zolpidemRejected].sort());
    expect(all.headers.get("x-record-count")).toBe("3");
    // Oldest decision first.
    expect(all.rows.map((r) => r.referenceID)).toEqual([
      ids.zolpidemApproved,
      ids.zolpidemRejected,
      ids.atorvastatinApproved,
    ]);

    const zolpidem = all.rows.find((r) => r.referenceID === ids.zolpidemApproved)!;
    expect(zolpidem.outcome).toMatch(/TRANSFER/);
    expect(zolpidem.schedule).toBe("Schedule IV");
    expect(zolpidem.localRxNumber).toBe("R-7001");
    expect(zolpidem.receivingPharmacist).toBe("Rosa Export, PharmD");
    expect(zolpidem.receivingPharmacistLicense).toBe(LICENSE);
    expect(zolpidem.oneTimeTransferConfirmed).toMatch(/Confirmed/);
    expect(zolpidem.medication).toBe("Zolpidem Tartrate");
    expect(zolpidem.prescriberAddress).toContain("1100 Walnut Street");
    expect(zolpidem.transferringPhone).not.toBe("");
    expect(zolpidem.patientName).toContain("Alvarez");
    const rejected = all.rows.find((r) => r.referenceID === ids.zolpidemRejected)!;
    expect(rejected.rejectionDescription).toBe("prescription.sig is incomplete: please resend with directions");
    expect(rejected.outcome).toMatch(/rejected \(INVALID_INFO\)/);
  });

  it("neutralises a value a spreadsheet would run as a formula", async () => {
    const log = await exportCsv({ from, to, schedule: "IV" });
    const row = log.rows.find((r) => r.referenceID === ids.zolpidemApproved)!;
    expect(row.note).toBe(`'${FORMULA_NOTE}`);
    expect(log.text).not.toMatch(/(^|,)"=HYPERLINK/m);
  });

  it("filters by schedule (the decision's, or the intake's for a rejection) and by outcome", async () => {
    // Defaults: every schedule, approved only.
    expect(referenceIDs(await exportCsv({ from, to }))).toEqual(
      [ids.atorvastatinApproved, ids.zolpidemApproved].sort(),
    );
    expect(referenceIDs(await exportCsv({ from, to, schedule: "IV" }))).toEqual([ids.zolpidemApproved]);
    expect(referenceIDs(await exportCsv({ from, to, schedule: "any" }))).toEqual([ids.zolpidemApproved]);
    expect(referenceIDs(await exportCsv({ from, to, schedule: "any", outcome: "any" }))).toEqual(
      [ids.zolpidemApproved, ids.zolpidemRejected].sort(),
    );
    expect(referenceIDs(await exportCsv({ from, to, schedule: "IV", outcome: "rejected" }))).toEqual([
      ids.zolpidemRejected,
    ]);
    expect(referenceIDs(await exportCsv({ from, to, outcome: "rejected" }))).toEqual([ids.zolpidemRejected]);
    expect(referenceIDs(await exportCsv({ from, to, schedule: "II", outcome: "any" }))).toEqual([]);
    // "C-IV" and "civ" are read as IV.
    expect(referenceIDs(await exportCsv({ from, to, schedule: "C-IV" }))).toEqual([ids.zolpidemApproved]);
    // The period is on the decision date: from inclusive, to exclusive.
    expect(referenceIDs(await exportCsv({ from: "2020-01-01", to: from, outcome: "any" }))).not.toContain(
      ids.zolpidemApproved,
    );
    const empty = await exportCsv({ from: "2020-01-01", to: "2020-01-02", outcome: "any" });
    expect(empty.status).toBe(200);
    expect(empty.header).toEqual([...TRANSFER_EXPORT_COLUMNS]);
    expect(empty.rows).toEqual([]);
    expect(empty.headers.get("content-disposition")).toContain('filename="transfers-2020-01-01-2020-01-02.csv"');
  });

  it("records each export in the audit log with its filters and row count, never patient data", async () => {
    const before = await db().auditEvent.count({ where: { action: "transfers.exported" } });
    const log = await exportCsv({ from, to, schedule: "any", outcome: "any" }, pharmacistCookie);
    expect(log.rows).toHaveLength(2);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "transfers.exported" },
      orderBy: { id: "desc" },
    });
    expect(await db().auditEvent.count({ where: { action: "transfers.exported" } })).toBe(before + 1);
    expect(audit).toMatchObject({ userId: pharmacist.id, actor: pharmacist.email, transferId: null });
    expect(audit.details).toEqual({ filters: { from, to, schedule: "any", outcome: "any" }, rows: 2 });
    expect(JSON.stringify(audit.details)).not.toMatch(/Alvarez|Zolpidem/);
  });

  it("refuses bad filters with a 400 problem+json that names the field, and nothing is exported", async () => {
    const before = await db().auditEvent.count({ where: { action: "transfers.exported" } });
    const cases: [Record<string, string>, RegExp][] = [
      [{ from: "2026-02-01", to: "2026-01-01" }, /from \(2026-02-01\) must be before to \(2026-01-01\)/],
      [{ from: "2026-01-01", to: "2026-01-01" }, /must be before/],
      [{ from, to, schedule: "VI" }, /schedule must be II, III, IV, V, any/],
      [{ from, to, outcome: "pending" }, /outcome must be approved, rejected or any/],
      [{ from: "2026-13-45", to }, /from must be an ISO 8601 date/],
      [{ from: "yesterday", to }, /from must be an ISO 8601 date/],
      [{ from: "2026-01-01T00:00:00", to }, /from must be an ISO 8601 date/],
      [{ from }, /to is required/],
      [{}, /from is required.*to is required/],
    ];
    for (const [query, detail] of cases) {
      const answer = await dashboardFetch<{ status: number; detail: string }>(
        baseUrl,
        `/api/transfers/export?${new URLSearchParams(query)}`,
        { cookie: pharmacistCookie },
      );
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.body.detail, JSON.stringify(query)).toMatch(detail);
    }
    expect(await db().auditEvent.count({ where: { action: "transfers.exported" } })).toBe(before);
  });

  it("is open to admins, closed to the anonymous", async () => {
    const log = await exportCsv({ from, to, outcome: "any" }, adminCookie);
    expect(log.status).toBe(200);
    expect(referenceIDs(log)).toHaveLength(3);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "transfers.exported" },
      orderBy: { id: "desc" },
    });
    expect(audit.actor).toBe(admin.email);
    const anonymous = await dashboardFetch(baseUrl, `/api/transfers/export?${new URLSearchParams({ from, to })}`);
    expect(anonymous.status).toBe(401);
  });

  it("the page /transfers/log (not a transfer's review) offers the download", async () => {
    const page = await dashboardFetch(baseUrl, "/transfers/log", {
      cookie: pharmacistCookie,
      headers: { accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Transfer log");
    expect(page.text).toContain("/api/transfers/export?");
    expect(page.text).toMatch(/<label[^>]*>First day<\/label>/);
  });
});

describe("npm run cli -- transfers export", () => {
  it("writes the same CSV as the API, to a file or to stdout, audited as cli", async () => {
    const query = { from, to, schedule: "any", outcome: "any" };
    const http = await exportCsv(query);
    const out = path.join(tmp, "log.csv");
    const exportAll = ["transfers", "export", "--from", from, "--to", to, "--schedule", "any", "--outcome", "any"];
    const written = await cli(...exportAll, "--out", out, "--json");
    expect(written.code, written.stdout).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ rows: 2, out, filters: { schedule: "any", outcome: "any" } });
    expect(readFileSync(out, "utf8")).toBe(http.text);

    const stdout = await cli(...exportAll);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toBe(http.text);

    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "transfers.exported" },
      orderBy: { id: "desc" },
    });
    expect(audit).toMatchObject({ actor: "cli", userId: null, details: { filters: query, rows: 2 } });
  });

  it("says what is wrong with a bad option, as --json or in words", async () => {
    const bad = await cli("transfers", "export", "--from", "2026-02-01", "--to", "2026-01-01", "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/must be before/) },
    });
    const missing = await cli("transfers", "export", "--from", "2026-01-01", "--json");
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: "usage", message: "--to is required" } });
    const schedule = await cli(
      "transfers",
      "export",
      "--from",
      "2026-01-01",
      "--to",
      "2026-02-01",
      "--schedule",
      "X",
      "--json",
    );
    expect(JSON.parse(schedule.stdout)).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/schedule must be/) },
    });
  });
});

describe("a log longer than the download's first batch", () => {
  it("lists every decided transfer once, oldest decision first, across the batches", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const decided: string[] = [];
    for (let i = 0; i < EXPORT_FIRST_BATCH + 12; i++) {
      const id = await receive("Atorvastatin Calcium");
      await approveTransfer({ transferId: id, actor: actor(pharmacist), clientAddress: null, approval: {} });
      decided.push(id);
    }
    const log = await exportCsv({ from: since, to: new Date(Date.now() + 60_000).toISOString() });
    expect(log.status, log.text).toBe(200);
    expect(log.headers.get("x-record-count")).toBe(String(decided.length));
    expect(referenceIDs(log)).toEqual([...decided].sort());
    const times = log.rows.map((r) => r.transferDateTime);
    expect(times).toEqual([...times].sort());
  });
});
