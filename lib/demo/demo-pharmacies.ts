// The demo's two pharmacies, shared by the fixed sample and the random ones: the mail-order pharmacy that
// sends transfers and the store that receives them. Names, addresses and numbers are invented; the DEA numbers
// carry their check digit, so they pass the semantic checks.
import { computeDeaCheckDigit } from "@/lib/interface";
import type { Name, Pharmacy } from "@/lib/interface";

/** Receiving store of the demo (the default PHARMACY_NPI of lib/env.ts). A valid NPI. */
export const DEMO_PHARMACY_NPI = "1245319599";
export const DEMO_PHARMACY_NAME = "Riverside Community Pharmacy";
/** The demo sending pharmacy (a mail-order pharmacy). A valid NPI. */
export const DEMO_SENDING_NPI = "1843501234";
export const DEMO_SENDING_NAME = "Demo Mail-Order Pharmacy";

/** A sample transfer's sending and receiving pharmacies: the demo's, at the NPIs given if any. */
export function demoPharmacies(
  sendingPharmacist: Name,
  npis: { receivingNpi?: string; sendingNpi?: string },
): { sendingPharmacy: Pharmacy; receivingPharmacy: Pharmacy } {
  return {
    sendingPharmacy: demoSendingPharmacy(sendingPharmacist, npis.sendingNpi ?? DEMO_SENDING_NPI),
    receivingPharmacy: demoReceivingPharmacy(npis.receivingNpi ?? DEMO_PHARMACY_NPI),
  };
}

/** The demo mail-order pharmacy that sends transfers. */
function demoSendingPharmacy(pharmacist: Name, npi: string): Pharmacy {
  return {
    dea: "FD" + withDeaCheck("382910"),
    npi,
    name: DEMO_SENDING_NAME,
    pharmacist,
    address: {
      addressLine1: "2500 Commerce Parkway",
      addressLine2: null,
      city: "Columbus",
      state: "OH",
      postalCode: "43219",
      countryCode: "US",
    },
    email: "transfers@mailorder.example.com",
    contactInfo: { countryCode: "+1", phoneNumber: "6145550110" },
  };
}

function demoReceivingPharmacy(npi: string): Pharmacy {
  return {
    dea: "FR" + withDeaCheck("604417"),
    npi,
    name: DEMO_PHARMACY_NAME,
    pharmacist: { firstName: "Dana", lastName: "Whitfield", middleName: null, prefix: null, suffix: "PharmD" },
    address: {
      addressLine1: "75 River Road",
      addressLine2: null,
      city: "Philadelphia",
      state: "PA",
      postalCode: "19128",
      countryCode: "US",
    },
    email: "rx@riverside.example.com",
    contactInfo: { countryCode: "+1", phoneNumber: "2155550125" },
  };
}

/** Six digits followed by their DEA check digit. */
export function withDeaCheck(sixDigits: string): string {
  return sixDigits + String(computeDeaCheckDigit(sixDigits));
}
