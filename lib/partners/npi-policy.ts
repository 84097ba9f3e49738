// A partner registered without sending NPIs may send transfers from any pharmacy NPI (kept for partners
// created before allow-lists existed), unless REQUIRE_PARTNER_NPIS=true, which refuses its transfers.
// Either way an admin should see it: this is the warning the partner screens and `partner list` show.
import { env } from "@/lib/env";

export function npiWarningFor(npis: readonly string[]): string | null {
  if (npis.length > 0) return null;
  return env().REQUIRE_PARTNER_NPIS
    ? "No NPIs registered: every transfer from this partner is refused (REQUIRE_PARTNER_NPIS=true). Add its pharmacy NPIs."
    : "No NPIs registered: this partner may send transfers from any pharmacy NPI. Add its pharmacy NPIs to limit it.";
}

/** What the admin partner screens tell an admin about the current mode (server settings a browser cannot read). */
export type PartnerPolicy = { insecureHttpAllowed: boolean; requirePartnerNpis: boolean };

export function partnerPolicy(): PartnerPolicy {
  return { insecureHttpAllowed: env().CALLBACK_ALLOW_INSECURE_HTTP, requirePartnerNpis: env().REQUIRE_PARTNER_NPIS };
}

/** The callback URL field's help text under the current mode. */
export function callbackUrlHint(policy: PartnerPolicy): string {
  return policy.insecureHttpAllowed
    ? "https:// (http:// is allowed on this server: CALLBACK_ALLOW_INSECURE_HTTP=true, for development only)."
    : "Must be https://.";
}

/** The NPI field's help text under the current mode. */
export function npisHint(policy: PartnerPolicy): string {
  return policy.requirePartnerNpis
    ? "Separated by commas or spaces. Required: a partner without NPIs is refused (REQUIRE_PARTNER_NPIS=true)."
    : "Separated by commas or spaces. Empty: any sending NPI (not recommended).";
}
