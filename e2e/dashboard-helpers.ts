// What the dashboard's browser tests share: users and a sending partner made in the test database through
// the service's own lib functions, transfers sent over /v1 with the partner's key, and signing in the way
// a pharmacist does (the login form).
import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { setEnv } from "../lib/env";
import { createPartner, type CreatedPartner } from "../lib/partners/create-partner";
import { buildTransferRequest, DEMO_SENDING_NPI } from "../lib/demo/sample-transfers";
import type { TransferRequest, TransferResponse } from "../lib/interface";
import { createUser } from "../lib/users/create-user";

let connected = false;

/**
 * Points this test process's lib code at the e2e server's database and keys, with the server's callback rules
 * (private networks and http:// allowed for the 127.0.0.1 receivers). setEnv, not process.env alone: another spec
 * in this worker may already have read (and cached) the settings; and a worker restarted after a failure starts
 * from nothing, so every spec that uses lib code calls this.
 */
export function connect(): void {
  if (connected) return;
  const databaseUrl = process.env.E2E_DATABASE_URL;
  const authSecret = process.env.E2E_AUTH_SECRET;
  if (!databaseUrl || !authSecret) throw new Error("E2E_DATABASE_URL / E2E_AUTH_SECRET are set by e2e/global-setup.ts");
  setEnv({
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: authSecret,
    DATA_ENCRYPTION_KEY: process.env.E2E_DATA_ENCRYPTION_KEY ?? "",
    AUDIT_HMAC_KEY: process.env.E2E_AUDIT_HMAC_KEY ?? "",
    LOG_LEVEL: "warn",
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
  });
  connected = true;
}

export type Pharmacist = { email: string; password: string; name: string };

export async function createPharmacist(name: string, role: "pharmacist" | "admin" = "pharmacist"): Promise<Pharmacist> {
  connect();
  const email = `${name.split(/[ ,]/)[0]!.toLowerCase()}-${randomUUID().slice(0, 8)}@e2e.example`;
  const password = `pw-${randomUUID()}`;
  await createUser({ email, password, role, name });
  return { email, password, name };
}

export async function createSender(): Promise<CreatedPartner> {
  connect();
  return createPartner({
    name: `E2E Mail-Order ${randomUUID().slice(0, 6)}`,
    callbackUrl: "https://sender.example/callbacks",
    npis: [],
  });
}

/** A valid request for a patient of its own (unique last name), changed as the test needs. */
export function transferRequest(change?: (r: TransferRequest) => void): TransferRequest {
  const request = structuredClone(buildTransferRequest());
  const tag = randomUUID()
    .replace(/[^a-z]/g, "")
    .slice(0, 6);
  request.metadata.requestID = `req-${randomUUID()}`;
  request.prescription.rxNumber = `RX${Math.floor(Math.random() * 1e10)}`;
  request.sendingPharmacy.npi = DEMO_SENDING_NPI;
  request.patient.name.lastName = `Tester${tag}`;
  request.metadata.patientReferenceID = `pat_${tag}`;
  change?.(request);
  return request;
}

export async function sendTransfer(
  api: APIRequestContext,
  partner: CreatedPartner,
  request: TransferRequest,
): Promise<string> {
  const res = await api.post("/v1/transfer", {
    data: request,
    headers: { authorization: `senderKey ${partner.apiKey}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as TransferResponse;
  return body.metadata.referenceID;
}

export async function transferStatus(
  api: APIRequestContext,
  partner: CreatedPartner,
  referenceID: string,
): Promise<TransferResponse> {
  const res = await api.get(`/v1/transfer/${referenceID}`, {
    headers: { authorization: `senderKey ${partner.apiKey}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as TransferResponse;
}

/** The patient as the queue lists them: "Last, First". */
export function queueName(request: TransferRequest): string {
  return `${request.patient.name.lastName}, ${request.patient.name.firstName}`;
}

/**
 * Drops the browser's session. The dashboard is left first: its pollers (alerts, session) answer a vanished
 * session by navigating to the sign-in page, which would cut off the caller's next navigation
 * (net::ERR_ABORTED; seen in CI after clearCookies on a dashboard page).
 */
export async function forgetSession(page: Page): Promise<void> {
  await page.goto("about:blank");
  await page.context().clearCookies();
}

export async function signIn(page: Page, user: Pharmacist, path = "/transfers"): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login\?/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
}
