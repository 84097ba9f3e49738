import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, webhookHeaders, webhookSecretKey } from "@/lib/callbacks/signature";
import { verifyWebhook } from "@/lib/callbacks/verify-webhook";

// A receiver written from the Standard Webhooks text alone, not from our signer: the secret is the base64
// after "whsec_"; the signed content is "<id>.<timestamp>.<body>"; the header is a space-separated list of
// "<version>,<base64 signature>" and a receiver accepts when any v1 entry matches.
function specVerifier(header: string, id: string, timestamp: string, body: string, secret: string): boolean {
  const key = Buffer.from(secret.split("_")[1] ?? "", "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(" ").some((entry) => {
    const [version, sig] = entry.split(",");
    if (version !== "v1" || !sig) return false;
    const given = Buffer.from(sig, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

describe("signWebhook", () => {
  it("matches a vector computed with openssl (HMAC-SHA256 over id.timestamp.body, key = base64 after whsec_)", () => {
    // printf '<content>' | openssl dgst -sha256 -mac HMAC -macopt hexkey:<key bytes in hex> -binary | base64
    const secret = "whsec_cngtdHJhbnNmZXItdGVzdC12ZWN0b3Ita2V5LTAxMjM0NTY3ODk=";
    const body = '{"requestID":"req-1","metadata":{"responseType":"CONFIRMED"}}';
    expect(signWebhook({ id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", timestamp: 1674087231, body, secrets: [secret] })).toBe(
      "v1,Wdnd4NrxG/w2R82mRmgp32KlB6hzKEox1qhx0jhEdQ0=",
    );
  });

  it("is accepted by a verifier written from the spec, and refused when id, timestamp, body or secret differ", () => {
    const secret = newSecret();
    const body = JSON.stringify({
      requestID: "r",
      metadata: { responseType: "ERROR" },
      error: { type: "OTHER", description: "é ✓" },
    });
    const headers = webhookHeaders({ id: "msg_abc", timestamp: 1_700_000_000, body, secrets: [secret] });
    expect(headers["webhook-id"]).toBe("msg_abc");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(specVerifier(headers["webhook-signature"], "msg_abc", "1700000000", body, secret)).toBe(true);
    expect(specVerifier(headers["webhook-signature"], "msg_abd", "1700000000", body, secret)).toBe(false);
    expect(specVerifier(headers["webhook-signature"], "msg_abc", "1700000001", body, secret)).toBe(false);
    expect(specVerifier(headers["webhook-signature"], "msg_abc", "1700000000", body + " ", secret)).toBe(false);
    expect(specVerifier(headers["webhook-signature"], "msg_abc", "1700000000", body, newSecret())).toBe(false);
  });

  it("carries one v1 signature per secret during a rotation, each valid for its own secret", () => {
    const current = newSecret();
    const previous = newSecret();
    const header = signWebhook({ id: "msg_x", timestamp: 1_700_000_000, body: "{}", secrets: [current, previous] });
    const entries = header.split(" ");
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.startsWith("v1,"))).toBe(true);
    expect(specVerifier(entries[0]!, "msg_x", "1700000000", "{}", current)).toBe(true);
    expect(specVerifier(entries[1]!, "msg_x", "1700000000", "{}", previous)).toBe(true);
    expect(specVerifier(header, "msg_x", "1700000000", "{}", newSecret())).toBe(false);
  });

  it("refuses secrets that are not whsec_ or too short", () => {
    expect(() => webhookSecretKey("abc")).toThrow(/whsec_/);
    expect(() => webhookSecretKey(`whsec_${randomBytes(8).toString("base64")}`)).toThrow(/too short/);
    expect(() => signWebhook({ id: "m", timestamp: 1, body: "", secrets: [] })).toThrow();
  });
});

describe("verifyWebhook (the receiver the demo endpoint and the docs use)", () => {
  const secret = newSecret();
  const now = new Date("2026-11-22T12:00:00Z");
  const ts = String(Math.floor(now.getTime() / 1000));
  const body = '{"a":1}';
  const signature = signWebhook({ id: "msg_1", timestamp: Number(ts), body, secrets: [secret] });

  it("accepts a good signature and any one good entry of a list", () => {
    expect(verifyWebhook({ id: "msg_1", timestamp: ts, signature, body, secrets: [secret], now })).toEqual({
      ok: true,
    });
    expect(
      verifyWebhook({ id: "msg_1", timestamp: ts, signature: `v1,AAAA ${signature}`, body, secrets: [secret], now }).ok,
    ).toBe(true);
  });

  it("refuses a changed body, a wrong secret, missing headers and a stale timestamp", () => {
    expect(verifyWebhook({ id: "msg_1", timestamp: ts, signature, body: '{"a":2}', secrets: [secret], now }).ok).toBe(
      false,
    );
    expect(verifyWebhook({ id: "msg_1", timestamp: ts, signature, body, secrets: [newSecret()], now }).ok).toBe(false);
    expect(verifyWebhook({ id: null, timestamp: ts, signature, body, secrets: [secret], now }).ok).toBe(false);
    const later = new Date(now.getTime() + 6 * 60_000);
    expect(verifyWebhook({ id: "msg_1", timestamp: ts, signature, body, secrets: [secret], now: later })).toEqual({
      ok: false,
      reason: "webhook-timestamp is too far from now",
    });
  });
});
