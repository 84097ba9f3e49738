// A pharmacist's licence number (printed on the transfer records they approve) as the admin form, the API and
// the CLI take it: 1-40 letters, digits, hyphens and spaces, starting and ending with a letter or digit; an
// empty value clears it. Pure, no server-only imports: the admin form validates with the same schema.
import * as z from "zod";
import { CreateUserInputSchema } from "@/lib/admin/admin-inputs";

export const LICENSE_NUMBER_MAX = 40;
const LICENSE_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;
export const LICENSE_RULE = `at most ${LICENSE_NUMBER_MAX} letters, digits, hyphens and spaces, e.g. RPH-012345`;

/** A typed licence number, tidied (spaces collapsed), or null for "none"; a string saying what is wrong otherwise. */
export function normalizeLicenseNumber(value: string | null | undefined): { ok: true; value: string | null } | { ok: false; message: string } {
  const text = (value ?? "").trim().replace(/\s+/g, " ");
  if (text === "") return { ok: true, value: null };
  if (text.length > LICENSE_NUMBER_MAX) return { ok: false, message: `Licence number must be at most ${LICENSE_NUMBER_MAX} characters` };
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

export const CreateUserWithLicenseSchema = CreateUserInputSchema.extend({ licenseNumber: LicenseNumberSchema.optional() });

export const LicenseInputSchema = z.object({ licenseNumber: LicenseNumberSchema });
