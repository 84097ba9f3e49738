// What an admin submits about a dashboard user (new user, role or disabled, password reset), and a
// pharmacist's licence number (printed on the transfer records they approve) as the admin form, the API and
// the CLI take it: 1-40 letters, digits, hyphens and spaces, starting and ending with a letter or digit; an
// empty value clears it. Client-safe, no server imports: the admin forms validate with the same schemas.
import * as z from "zod";
import { USER_ROLES } from "@/lib/users/roles";

/** The one minimum, here because the forms cannot import lib/auth/passwords.ts (node:crypto), which takes it from here. */
export const MIN_PASSWORD_LENGTH = 8;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter an email address")
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Enter a valid email address");
const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
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

export const LICENSE_NUMBER_MAX = 40;
const LICENSE_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;
export const LICENSE_RULE = `at most ${LICENSE_NUMBER_MAX} letters, digits, hyphens and spaces, e.g. RPH-012345`;

/** A typed licence number, tidied (spaces collapsed), or null for "none"; a string saying what is wrong otherwise. */
export function normalizeLicenseNumber(
  value: string | null | undefined,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const text = (value ?? "").trim().replace(/\s+/g, " ");
  if (text === "") return { ok: true, value: null };
  if (text.length > LICENSE_NUMBER_MAX)
    return { ok: false, message: `Licence number must be at most ${LICENSE_NUMBER_MAX} characters` };
  if (!LICENSE_PATTERN.test(text)) return { ok: false, message: `Licence number: ${LICENSE_RULE}` };
  return { ok: true, value: text };
}

/** Input "" or null clears; output the tidied number or null. */
export const LicenseNumberSchema = z
  .string({ error: "Licence number must be text, or null to clear it" })
  .nullable()
  .transform((v, ctx) => {
    const n = normalizeLicenseNumber(v);
    if (n.ok) return n.value;
    ctx.addIssue({ code: "custom", message: n.message });
    return z.NEVER;
  });

export const CreateUserWithLicenseSchema = CreateUserInputSchema.extend({
  licenseNumber: LicenseNumberSchema.optional(),
});

export const LicenseInputSchema = z.object({ licenseNumber: LicenseNumberSchema });
