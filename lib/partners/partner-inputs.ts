// What an admin submits about a sending partner and its credentials (profile, callback URL, outbound
// credential, suspension, webhook secret and API key rotation). Shared by the API routes (validation) and
// the forms (react-hook-form's zod resolver), so both say the same thing about the same field. Client-safe:
// no server imports. The domain operations check again (they also serve the CLI); these schemas give people
// early, precise messages.
import * as z from "zod";
import {
  HEADER_NAME_TOKEN,
  MAX_KEY_OVERLAP_HOURS,
  MAX_OUTBOUND_HEADER_NAME_LENGTH,
  MAX_OUTBOUND_HEADER_VALUE_LENGTH,
  MAX_SECRET_OVERLAP_HOURS,
  RESERVED_CALLBACK_HEADERS,
} from "@/lib/partners/credential-rules";
import { isValidNpi } from "@/lib/interface/client-safe";

const npi = z
  .string()
  .trim()
  .refine(isValidNpi, { message: "must be a valid NPI (10 digits with a valid check digit)" });

/** NPIs as people type them: separated by commas, spaces or new lines. */
export function splitNpis(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const npiList = z.array(npi).max(100, "at most 100 NPIs");
/** For forms: the NPIs as one text field, checked one by one with the failing one named. */
const npiText = z
  .string()
  .transform(splitNpis)
  .superRefine((npis, ctx) => {
    const bad = npis.filter((n) => !isValidNpi(n));
    if (bad.length)
      ctx.addIssue({
        code: "custom",
        message: `Not a valid NPI (10 digits with a valid check digit): ${bad.join(", ")}`,
      });
  });

const partnerName = z
  .string()
  .trim()
  .min(1, "Enter the partner's name")
  .max(200, "Name must be at most 200 characters");
const callbackUrl = z
  .string()
  .trim()
  .min(1, "Enter the callback URL")
  .max(2000, "Callback URL must be at most 2000 characters")
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), {
    message: "Callback URL must be an absolute http(s) URL, e.g. https://partner.example/rx-callbacks",
  });

export const CreatePartnerInputSchema = z.object({ name: partnerName, callbackUrl, npis: npiList.default([]) });
export const CreatePartnerFormSchema = z.object({ name: partnerName, callbackUrl, npis: npiText });

export const UpdatePartnerInputSchema = z
  .object({ name: partnerName.optional(), npis: npiList.optional() })
  .refine((v) => v.name !== undefined || v.npis !== undefined, { message: "give a name or NPIs to change" });
export const PartnerProfileFormSchema = z.object({ name: partnerName, npis: npiText });

export const CallbackUrlInputSchema = z.object({ callbackUrl });

export const OutboundCredentialInputSchema = z.object({
  headerName: z
    .string()
    .trim()
    .min(1, "Enter the header name")
    .max(MAX_OUTBOUND_HEADER_NAME_LENGTH, `Header name must be at most ${MAX_OUTBOUND_HEADER_NAME_LENGTH} characters`)
    .regex(HEADER_NAME_TOKEN, "Header name may contain letters, digits and - only (e.g. Authorization or X-Api-Key)")
    .refine((name) => !RESERVED_CALLBACK_HEADERS.has(name.toLowerCase()), {
      message: "Our callbacks set this header themselves; choose another (e.g. Authorization or X-Api-Key)",
    }),
  headerValue: z
    .string()
    .min(1, "Enter the header value")
    .max(
      MAX_OUTBOUND_HEADER_VALUE_LENGTH,
      `Header value must be at most ${MAX_OUTBOUND_HEADER_VALUE_LENGTH} characters`,
    )
    .refine((v) => !/[\r\n]/.test(v), { message: "Header value must be on one line" }),
});

export const SuspensionInputSchema = z.object({ suspended: z.boolean() });

const hours = (max: number) =>
  z.coerce
    .number({ error: "Enter a number of hours" })
    .int("Enter whole hours")
    .min(0, "Overlap must be 0 hours or more")
    .max(max, `Overlap must be at most ${max} hours (${max / 24} days)`);

export const RotateWebhookSecretInputSchema = z.object({ overlapHours: hours(MAX_SECRET_OVERLAP_HOURS) });
export const RotateApiKeyInputSchema = z.object({ overlapHours: hours(MAX_KEY_OVERLAP_HOURS) });

export const CreateApiKeyInputSchema = z.object({
  /** Absent or null: the key does not expire. */
  expiresInDays: z.coerce
    .number()
    .int("Enter whole days")
    .min(1, "At least 1 day")
    .max(3650, "At most 3650 days")
    .nullable()
    .optional(),
});
/** For the form: an empty field means "never expires". */
export const CreateApiKeyFormSchema = z.object({
  expiresInDays: z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : Number(v)))
    .pipe(
      z
        .number({ error: "Enter a number of days" })
        .int("Enter whole days")
        .min(1, "At least 1 day")
        .max(3650, "At most 3650 days")
        .nullable(),
    ),
});
