// Demo data for `npm run dev`, created once: a sending partner with its credentials, a pharmacist and an
// admin login, and a few realistic transfers of different ages. The credentials are kept in the data dir
// (mode 0600) so every dev start can print them again; nothing here runs in production.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { createPartner } from "@/lib/partners/create-partner";
import { DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import { randomTransferRequest } from "@/lib/demo/random-transfer-request";
import { receiveTransfer } from "@/lib/transfers/intake";
import type { TransferRequest } from "@/lib/interface";
import { createUser } from "@/lib/users/create-user";

type DemoCredentials = {
  partnerId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  pharmacist: { email: string; password: string };
  admin: { email: string; password: string };
};

/** Minutes ago at which the demo transfers arrived: fresh, getting on, close to the sender's 4-hour limit. */
const DEMO_AGES_MINUTES = [5, 40, 95, 170, 215];

const DAY_MS = 86_400_000;
const isoAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Three transfers that show what the drug rules do: a C-II that cannot be approved, a C-IV past six months, a penicillin allergy. */
const DEMO_SHOWCASES: ((r: TransferRequest) => void)[] = [
  (r) => {
    Object.assign(r.prescription, {
      medicationName: "Oxycodone Hydrochloride",
      drugStrength: "5 mg",
      drugForm: "Tablet",
      sig: "Take 1 tablet by mouth every 6 hours as needed for pain",
    });
    Object.assign(r.prescription, {
      refillsAuthorized: 1,
      refillsRemaining: 0,
      firstFilledDate: null,
      lastFilledDate: null,
      quantityWritten: 20,
      quantityDispensed: 20,
      daysSupply: 5,
    });
  },
  (r) => {
    Object.assign(r.prescription, {
      medicationName: "Alprazolam",
      drugStrength: "0.5 mg",
      drugForm: "Tablet",
      sig: "Take 1 tablet by mouth twice daily as needed for anxiety",
    });
    Object.assign(r.prescription, {
      writtenDate: isoAgo(200),
      firstFilledDate: isoAgo(199),
      lastFilledDate: isoAgo(20),
      expirationDate: isoAgo(-165),
    });
    Object.assign(r.prescription, {
      refillsAuthorized: 6,
      refillsRemaining: 3,
      quantityWritten: 60,
      quantityDispensed: 60,
      daysSupply: 30,
    });
  },
  (r) => {
    Object.assign(r.prescription, {
      medicationName: "Amoxicillin",
      drugStrength: "500 mg",
      drugForm: "Capsule",
      sig: "Take 1 capsule by mouth three times daily for 10 days",
    });
    Object.assign(r.prescription, { quantityWritten: 30, quantityDispensed: 30, daysSupply: 10 });
    r.patient.allergyDetails = { allergiesDescriptor: "KNOWN_ALLERGIES_INCLUDED", allergies: ["Penicillin"] };
  },
];

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function createDemo(port: number): Promise<DemoCredentials> {
  const partner = await createPartner({
    name: "Demo Mail-Order Pharmacy",
    callbackUrl: `http://127.0.0.1:${port}/demo/callbacks`,
    npis: [DEMO_SENDING_NPI],
  });
  const pharmacist = { email: "pharmacist@demo.test", password: randomBytes(9).toString("base64url") };
  const admin = { email: "admin@demo.test", password: randomBytes(9).toString("base64url") };
  await createUser({ ...pharmacist, role: "pharmacist", name: "Dana Whitfield, PharmD" });
  await createUser({ ...admin, role: "admin", name: "Sam Ortega" });
  // Demo logins work without a phone: exempt from MFA_REQUIRED (honoured only in development).
  await db().user.updateMany({
    where: { email: { in: [pharmacist.email, admin.email] } },
    data: { twoFactorExempt: true },
  });

  const rng = mulberry32(20261122);
  const ages = [...DEMO_AGES_MINUTES, 25, 60, 120];
  for (const [i, minutes] of ages.entries()) {
    const request = randomTransferRequest(rng, { receivingNpi: env().PHARMACY_NPI, sendingNpi: DEMO_SENDING_NPI });
    DEMO_SHOWCASES[i - DEMO_AGES_MINUTES.length]?.(request);
    const outcome = await receiveTransfer(partner.partnerId, request);
    if (outcome.kind === "created") {
      await db().transfer.update({
        where: { id: outcome.response.metadata.referenceID },
        data: { receivedAt: new Date(Date.now() - minutes * 60_000) },
      });
    }
  }
  return {
    partnerId: partner.partnerId,
    apiKey: partner.apiKey,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    webhookSecret: partner.webhookSecret,
    pharmacist,
    admin,
  };
}

export async function seedDemoOnce(opts: { dataDir: string; port: number }): Promise<{ lines: string[] }> {
  const file = path.join(opts.dataDir, "demo-credentials.json");
  let creds: DemoCredentials | undefined;
  if (existsSync(file)) {
    creds = JSON.parse(readFileSync(file, "utf8")) as DemoCredentials;
  } else if ((await db().user.count()) === 0) {
    creds = await createDemo(opts.port);
    writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  }
  if (!creds) return { lines: ["database already has users: no demo data added"] };
  const base = `http://localhost:${opts.port}`;
  return {
    lines: [
      `demo data (kept in ${file}):`,
      `  dashboard        ${base}/transfers`,
      `  pharmacist login ${creds.pharmacist.email} / ${creds.pharmacist.password}`,
      `  admin login      ${creds.admin.email} / ${creds.admin.password}`,
      `                   (two-factor off for these demo logins in development, whatever MFA_REQUIRED says)`,
      `  partner          ${creds.partnerId}`,
      `  API key          ${creds.apiKey}`,
      `  OAuth client     ${creds.clientId} / ${creds.clientSecret}`,
      `  webhook secret   ${creds.webhookSecret}`,
      `  API docs         ${base}/docs`,
    ],
  };
}
