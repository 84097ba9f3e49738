// Helpers for talking to the running service over real HTTP, as a sending pharmacy would. Every answer is
// held to the published document (tests/support/contract.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { buildTransferRequest, DEMO_SENDING_NPI } from "@/lib/demo/sample-transfers";
import type { TransferRequest, TransferResponse } from "@/lib/interface";
import { expectAnswerInDocument } from "@/tests/support/contract";

export type ApiAnswer = { status: number; headers: Headers; body: TransferResponse; text: string };

export async function createTestPartner(name = "Test Sender"): Promise<CreatedPartner> {
  return createPartner({
    name: `${name} ${randomUUID().slice(0, 8)}`,
    callbackUrl: "https://sender.example/callbacks",
    npis: [],
  });
}

/**
 * Letters that make a patient's name of its own (26^12 of them): duplicate therapy looks across every transfer
 * for the same name, birth date and drug, so a test's patients must not meet by chance.
 */
export function uniqueLetters(length = 12): string {
  return Array.from(randomBytes(length), (b) => String.fromCharCode(97 + (b % 26))).join("");
}

/** A valid request with its own requestID and rxNumber, so tests never collide with each other. */
export function freshRequest(change?: (r: TransferRequest) => void): TransferRequest {
  const request = structuredClone(buildTransferRequest());
  request.metadata.requestID = `req-${randomUUID()}`;
  request.prescription.rxNumber = `RX${Math.floor(Math.random() * 1e10)}`;
  request.sendingPharmacy.npi = DEMO_SENDING_NPI;
  change?.(request);
  return request;
}

export async function send(
  baseUrl: string,
  opts: {
    body?: unknown;
    raw?: string;
    authorization?: string | null;
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  },
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  if (opts.authorization) headers.authorization = opts.authorization;
  const res = await fetch(`${baseUrl}${opts.path ?? "/v1/transfer"}`, {
    method: opts.method ?? "POST",
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  expectAnswerInDocument({
    method: opts.method ?? "POST",
    path: opts.path ?? "/v1/transfer",
    status: res.status,
    headers: res.headers,
    text,
  });
  let body: TransferResponse;
  try {
    body = JSON.parse(text) as TransferResponse;
  } catch {
    throw new Error(`answer is not JSON (status ${res.status}): ${text.slice(0, 300)}`);
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Every answer of /v1, whatever its status, must be a complete TransferResponse envelope. */
export function expectEnvelope(answer: ApiAnswer): void {
  const { body } = answer;
  const problems: string[] = [];
  if (typeof body.requestID !== "string") problems.push("requestID");
  const m = body.metadata as Partial<TransferResponse["metadata"]> | undefined;
  if (!m || !["RECEIVED", "CONFIRMED", "ERROR"].includes(m.responseType ?? "")) problems.push("metadata.responseType");
  if (!m?.referenceID) problems.push("metadata.referenceID");
  if (!m?.responseID) problems.push("metadata.responseID");
  if (!m?.responseTimestamp || Number.isNaN(Date.parse(m.responseTimestamp)))
    problems.push("metadata.responseTimestamp");
  if (m?.responseType === "ERROR" && (!body.error?.type || !body.error.description)) problems.push("error");
  if (!answer.headers.get("content-type")?.startsWith("application/json")) problems.push("content-type");
  if (problems.length) throw new Error(`not a complete TransferResponse (${problems.join(", ")}): ${answer.text}`);
}

export const senderKey = (apiKey: string) => `senderKey ${apiKey}`;
