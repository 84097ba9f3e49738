// A store as the admin form and the API take it. Client-safe: the form validates with the same schema; the
// domain operation (add-store.ts) checks again.
import * as z from "zod";
import { isValidDea, isValidNpi } from "@/lib/interface/client-safe";

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

/** The store's address in the wire shape (lib/interface/wire.ts AddressSchema), or null when none was given. */
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
