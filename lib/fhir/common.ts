// Shared pieces of the resource builders: names, addresses, telecoms, identifiers, stable entry ids.
import { createHash } from "node:crypto";
import type { Address as FhirAddress, ContactPoint, HumanName, Identifier } from "@medplum/fhirtypes";
import { SYSTEMS } from "@/lib/fhir/systems";
import type { Address, ContactInfo, Name } from "@/lib/interface";

export function humanName(name: Name, use?: HumanName["use"]): HumanName {
  return {
    ...(use ? { use } : {}),
    family: name.lastName,
    given: name.middleName ? [name.firstName, name.middleName] : [name.firstName],
    ...(name.prefix ? { prefix: [name.prefix] } : {}),
    ...(name.suffix ? { suffix: [name.suffix] } : {}),
  };
}

export function nameText(name: Name): string {
  return [name.prefix, name.firstName, name.middleName, name.lastName, name.suffix].filter(Boolean).join(" ");
}

export function fhirAddress(address: Address): FhirAddress {
  return {
    line: address.addressLine2 ? [address.addressLine1, address.addressLine2] : [address.addressLine1],
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    country: address.countryCode,
  };
}

export function telecoms(parts: {
  contactInfo?: ContactInfo | null;
  email?: string | null;
  fax?: string | null;
}): ContactPoint[] {
  const out: ContactPoint[] = [];
  if (parts.contactInfo)
    out.push({ system: "phone", value: `${parts.contactInfo.countryCode} ${parts.contactInfo.phoneNumber}` });
  if (parts.fax) out.push({ system: "fax", value: parts.fax });
  if (parts.email) out.push({ system: "email", value: parts.email });
  return out;
}

export function npiAndDea(npi: string, dea: string | null): Identifier[] {
  return [{ system: SYSTEMS.npi, value: npi }, ...(dea ? [{ system: SYSTEMS.dea, value: dea }] : [])];
}

/** A UUID made from the transfer and the entry's role, so the same transfer always yields the same Bundle. */
export function stableUuid(...parts: string[]): string {
  const h = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  // Version 8 (custom) UUID layout per RFC 9562: version nibble 8, variant bits 10.
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
