// How the people and places of a transfer are written for a person to read: names, addresses, phone and fax
// numbers. One wording for the dashboard and the legal transfer record (lib/transfers/record/transfer-record.ts),
// so the record says what the screen showed. Pure and client-safe.
import type { Address, ContactInfo, Name } from "./wire";

/** "Dr. Daniel Chen MD" */
export function fullName(name: Name): string {
  return [name.prefix, name.firstName, name.middleName, name.lastName, name.suffix].filter(Boolean).join(" ");
}

/** "Chen, Daniel" (how a queue is scanned) */
export function sortName(name: { firstName: string; lastName: string }): string {
  return `${name.lastName}, ${name.firstName}`;
}

export function addressLines(address: Address): string[] {
  return [
    address.addressLine1,
    address.addressLine2,
    `${address.city}, ${address.state} ${address.postalCode}${address.countryCode && address.countryCode !== "US" ? ` ${address.countryCode}` : ""}`,
  ].filter((line): line is string => Boolean(line));
}

/** "+1 (215) 555-0143" */
export function formatPhone(contact: ContactInfo | null): string | null {
  if (!contact) return null;
  const d = contact.phoneNumber;
  return `${contact.countryCode} (${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export function formatFax(fax: string | null): string | null {
  if (!fax) return null;
  return /^\d{10}$/.test(fax) ? `(${fax.slice(0, 3)}) ${fax.slice(3, 6)}-${fax.slice(6)}` : fax;
}
