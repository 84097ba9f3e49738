// What an admin submits on the admin screens. Shared by the API routes (validation) and the forms
// (react-hook-form's zod resolver), so both say the same thing about the same field. No server-only
// imports here: client components use these schemas. The domain operations check again (they are also
// called from the CLI); these schemas only give people early, precise messages.
import * as z from "zod";
import {
  HEADER_NAME_TOKEN,
  MAX_KEY_OVERLAP_HOURS,
  MAX_OUTBOUND_HEADER_NAME_LENGTH,
  MAX_OUTBOUND_HEADER_VALUE_LENGTH,
  MAX_SECRET_OVERLAP_HOURS,
  RESERVED_CALLBACK_HEADERS,
} from "@/lib/partners/credential-rules";
import { isValidDea, isValidNpi } from "@/lib/transfers/identifiers";
import { USER_ROLES } from "@/lib/users/roles";

/** Mirrors lib/auth/passwords.ts MIN_PASSWORD_LENGTH (that module needs node:crypto; forms cannot import it). */
export const ADMIN_MIN_PASSWORD_LENGTH = 8;

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
    .max(MAX_OUTBOUND_HEADER_VALUE_LENGTH, `Header value must be at most ${MAX_OUTBOUND_HEADER_VALUE_LENGTH} characters`)
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

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter an email address")
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Enter a valid email address");
const password = z
  .string()
  .min(ADMIN_MIN_PASSWORD_LENGTH, `Password must be at least ${ADMIN_MIN_PASSWORD_LENGTH} characters`)
  .max(200, "Password must be at most 200 characters");
const role = z.enum(USER_ROLES, { error: "Choose pharmacist or admin" });

export const CreateUserInputSchema = z.object({
  email,
  name: z.string().trim().max(200, "Name must be at most 200 characters").optional(),
  role,
  password,
});

export const UpdateUserInputSchema = z
  .object({ role: role.optional(), disabled: z.boolean().optional() })
  // One change per request: each is its own audited operation, and a refusal (the last admin) must not leave half of a request done.
  .refine((v) => (v.role === undefined) !== (v.disabled === undefined), {
    message: "give either role or disabled (one change per request)",
  });

export const ResetPasswordInputSchema = z.object({ password });

const optionalLine = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`);

/** A store as the form and the API take it; the address is optional as a whole. */
export const StoreInputSchema = z
  .object({
    name: z.string().trim().min(1, "Enter the store's name").max(200, "Name must be at most 200 characters"),
    npi: z.string().trim().refine(isValidNpi, { message: "Enter a valid NPI (10 digits with a valid check digit)" }),
    dea: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => v === "" || isValidDea(v), {
        message: "Enter a valid DEA number (2 letters, 7 digits, check digit) or leave it empty",
      })
      .optional(),
    addressLine1: optionalLine(40, "Address line 1").optional(),
    addressLine2: optionalLine(40, "Address line 2").optional(),
    city: optionalLine(35, "City").optional(),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => v === "" || /^[A-Z]{2}$/.test(v), { message: "State must be a 2-letter code, e.g. PA" })
      .optional(),
    postalCode: z
      .string()
      .trim()
      .refine((v) => v === "" || /^\d{5}(-\d{4})?$/.test(v), { message: "ZIP code must be 12345 or 12345-6789" })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const any = Boolean(v.addressLine1 || v.addressLine2 || v.city || v.state || v.postalCode);
    if (!any) return;
    if (!v.addressLine1)
      ctx.addIssue({
        code: "custom",
        path: ["addressLine1"],
        message: "Enter address line 1, or leave the whole address empty",
      });
    if (!v.city)
      ctx.addIssue({ code: "custom", path: ["city"], message: "Enter the city, or leave the whole address empty" });
    if (!v.state)
      ctx.addIssue({ code: "custom", path: ["state"], message: "Enter the state, or leave the whole address empty" });
    if (!v.postalCode)
      ctx.addIssue({
        code: "custom",
        path: ["postalCode"],
        message: "Enter the ZIP code, or leave the whole address empty",
      });
  });
export type StoreInput = z.output<typeof StoreInputSchema>;

/** The store's address in the wire shape (lib/transfers/wire.ts AddressSchema), or null when none was given. */
export function storeAddressOf(input: StoreInput): Record<string, string | null> | null {
  if (!input.addressLine1) return null;
  return {
    addressLine1: input.addressLine1,
    addressLine2: input.addressLine2 || null,
    city: input.city ?? "",
    state: input.state ?? "",
    postalCode: input.postalCode ?? "",
    countryCode: "US",
  };
}
