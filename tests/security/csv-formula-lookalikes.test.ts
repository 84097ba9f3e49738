// The CSV export's formula guard looked only at the ASCII = + - @: a full-width ＝ (and the other compatibility
// look-alikes that spreadsheets normalise) passed into the transfer log unguarded. The guard now decides after
// Unicode NFKC normalisation: here over real HTTP, an approval note that starts with a look-alike comes out of
// GET /api/transfers/export with the apostrophe prefix, and each look-alike is checked on the writer itself.
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { csvField } from "@/lib/csv";
import { approveTransfer } from "@/lib/transfers/decision";
import { setUserLicenseNumber } from "@/lib/users/set-user-license-number";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { createTestUser, dashboardFetch, signedInCookie, type TestUser } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();

/** Full-width, small-form, superscript and subscript forms whose NFKC form starts a formula. */
const LOOKALIKES = [
  "\uFF1D",
  "\uFF0B",
  "\uFF0D",
  "\uFF20",
  "\uFE66",
  "\uFE62",
  "\uFE63",
  "\uFE6B",
  "\u207C",
  "\u208A",
  "\u2212",
];
const NOTE = '\uFF1DHYPERLINK("http://evil.example","click")';

let pharmacist: TestUser;
let cookie: string;
let from: string;

beforeAll(async () => {
  pharmacist = await createTestUser("pharmacist", "Rosa Lookalike, PharmD");
  await setUserLicenseNumber({ userId: pharmacist.id, licenseNumber: "RPH-0043 PA", actor: SYSTEM_ACTOR });
  cookie = await signedInCookie(baseUrl, pharmacist);
  from = new Date(Date.now() - 1000).toISOString();
});

describe("CSV formula guard after NFKC normalisation", () => {
  it.each(LOOKALIKES)("prefixes a field that starts with %j", (char) => {
    const text = `${char}1+1`;
    expect(csvField(text)).toBe(`"'${text}"`);
  });

  it("leaves text alone whose normalised form does not start a formula", () => {
    expect(csvField("\uFF21bc")).toBe('"\uFF21bc"');
    expect(csvField("1\uFF1D1")).toBe('"1\uFF1D1"');
  });

  it("neutralises a full-width formula in the transfer log over HTTP", async () => {
    const partner = await createTestPartner("Lookalike export");
    const answer = await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) });
    expect(answer.status, answer.text).toBe(200);
    await approveTransfer({
      transferId: answer.body.metadata.referenceID,
      actor: { id: pharmacist.id, email: pharmacist.email, name: pharmacist.name, role: pharmacist.role },
      clientAddress: null,
      approval: { oneTimeTransferConfirmed: true, localRxNumber: "R-7101", note: NOTE },
    });
    const to = new Date(Date.now() + 60_000).toISOString();
    const csv = await dashboardFetch<unknown>(baseUrl, `/api/transfers/export?${new URLSearchParams({ from, to })}`, {
      cookie,
      headers: { accept: "text/csv" },
    });
    expect(csv.status, csv.text).toBe(200);
    const quoted = NOTE.replace(/"/g, '""');
    expect(csv.text).toContain(`,"'${quoted}",`);
    expect(csv.text).not.toContain(`,"${quoted}",`);
  });
});
