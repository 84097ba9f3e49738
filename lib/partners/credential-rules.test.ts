import { describe, expect, it } from "vitest";
import { OutboundCredentialInputSchema } from "@/lib/partners/partner-inputs";
import {
  isOverlapWithin,
  isUsableOutboundHeaderName,
  MAX_KEY_OVERLAP_HOURS,
  MAX_SECRET_OVERLAP_HOURS,
} from "./credential-rules";

describe("partner credential rules", () => {
  it("takes an overlap from 0 hours up to the limit, nothing else", () => {
    expect(isOverlapWithin(0, MAX_SECRET_OVERLAP_HOURS)).toBe(true);
    expect(isOverlapWithin(MAX_SECRET_OVERLAP_HOURS, MAX_SECRET_OVERLAP_HOURS)).toBe(true);
    expect(isOverlapWithin(MAX_SECRET_OVERLAP_HOURS + 1, MAX_SECRET_OVERLAP_HOURS)).toBe(false);
    expect(isOverlapWithin(MAX_KEY_OVERLAP_HOURS, MAX_KEY_OVERLAP_HOURS)).toBe(true);
    expect(isOverlapWithin(-1, MAX_KEY_OVERLAP_HOURS)).toBe(false);
    expect(isOverlapWithin(Number.NaN, MAX_KEY_OVERLAP_HOURS)).toBe(false);
  });

  it("lets a partner's credential use any token header our callbacks do not set themselves", () => {
    expect(isUsableOutboundHeaderName("Authorization")).toBe(true);
    expect(isUsableOutboundHeaderName("X-Api-Key")).toBe(true);
    expect(isUsableOutboundHeaderName("Webhook-Signature")).toBe(false);
    expect(isUsableOutboundHeaderName("Content-Length")).toBe(false);
    expect(isUsableOutboundHeaderName("X Api")).toBe(false);
    expect(isUsableOutboundHeaderName("X".repeat(65))).toBe(false);
  });

  it("gives the admin form the same answer, with a message saying why", () => {
    const reserved = OutboundCredentialInputSchema.safeParse({ headerName: "webhook-id", headerValue: "v" });
    expect(reserved.success).toBe(false);
    expect(reserved.error?.issues[0]?.message).toMatch(/callbacks set this header themselves/);
    expect(OutboundCredentialInputSchema.safeParse({ headerName: "X-Api-Key", headerValue: "v" }).success).toBe(true);
  });
});
