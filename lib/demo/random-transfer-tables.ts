// The tables randomTransferRequest draws from (random-transfer-request.ts). Names, addresses, phone numbers and
// plans are invented. The medication table uses real drug names, strengths and forms; its NDCs are written in
// the 11-digit billing form and are illustrative, not for dispensing. The order of every table is part of what
// a seed gives: reordering one changes the requests a seed draws.

export type Drug = {
  medicationName: string;
  drugForm: string;
  drugStrength: string;
  ndc: string;
  /** Another manufacturer's equivalent, used as dispensedNDC now and then. */
  alternateNdc: string | null;
  sig: string;
  /** Units per day; or, for packages (inhalers, tubes), the package quantity and the days it lasts. */
  dose: { perDay: number } | { perPackage: number; packageDays: number };
  icdCode: string;
  /** Schedule III-V: expires 6 months after writing, at most 5 refills after the first fill. */
  controlled: boolean;
  daysSupply: readonly number[];
};

type Dose = Drug["dose"];
const perDay = (n: number): Dose => ({ perDay: n });
const perPackage = (n: number, days: number): Dose => ({ perPackage: n, packageDays: days });

/** A drug as a table row: name, form, strength, ICD-10, dose, days supply; NDC, alternate NDC, sig. */
type DrugRow = [
  medicationName: string,
  drugForm: string,
  drugStrength: string,
  icdCode: string,
  dose: Dose,
  daysSupply: readonly number[],
  ndc: string,
  alternateNdc: string | null,
  sig: string,
];

// prettier-ignore
const UNCONTROLLED_DRUGS: readonly DrugRow[] = [
  ["Atorvastatin Calcium", "Tablet", "20 mg", "E78.5", perDay(1), [30, 90],
    "00071015623", "60505257909", "Take 1 tablet by mouth once daily in the evening"],
  ["Lisinopril", "Tablet", "10 mg", "I10", perDay(1), [30, 90],
    "68180051301", "00093111101", "Take 1 tablet by mouth once daily"],
  ["Metformin Hydrochloride", "Tablet", "500 mg", "E11.9", perDay(2), [30, 90],
    "00093104801", "65162017510", "Take 1 tablet by mouth twice daily with meals"],
  ["Levothyroxine Sodium", "Tablet", "50 mcg", "E03.9", perDay(1), [30, 90],
    "00074455190", null, "Take 1 tablet by mouth every morning on an empty stomach, 30 minutes before breakfast"],
  ["Amlodipine Besylate", "Tablet", "5 mg", "I10", perDay(1), [30, 90],
    "00069152630", "33342000810", "Take 1 tablet by mouth once daily"],
  ["Sertraline Hydrochloride", "Tablet", "50 mg", "F32.9", perDay(1), [30, 90],
    "00049496066", "16729000301", "Take 1 tablet by mouth once daily"],
  ["Omeprazole", "Delayed-release capsule", "20 mg", "K21.9", perDay(1), [30, 90],
    "62175011837", null, "Take 1 capsule by mouth once daily before breakfast"],
  ["Albuterol Sulfate HFA", "Inhalation aerosol", "90 mcg/actuation", "J45.909", perPackage(18, 30), [30],
    "00173068220", null, "Inhale 2 puffs by mouth every 4 to 6 hours as needed for wheezing or shortness of breath"],
  ["Fluticasone Propionate", "Nasal spray, suspension", "50 mcg/spray", "J30.9", perPackage(16, 30), [30],
    "60505082901", null, "Use 2 sprays in each nostril once daily"],
  ["Triamcinolone Acetonide", "Cream", "0.1%", "L30.9", perPackage(80, 30), [30],
    "00168000480", null, "Apply a thin layer to the affected area twice daily"],
  ["Gabapentin", "Capsule", "300 mg", "M54.17", perDay(3), [30, 90],
    "00228263650", "59762502701", "Take 1 capsule by mouth three times daily"],
];

/** Schedule III-V. */
// prettier-ignore
const CONTROLLED_DRUGS: readonly DrugRow[] = [
  ["Tramadol Hydrochloride", "Tablet", "50 mg", "G89.29", perDay(4), [7, 14, 30],
    "00093005801", null, "Take 1 tablet by mouth every 6 hours as needed for pain; do not exceed 4 tablets per day"],
  ["Zolpidem Tartrate", "Tablet", "10 mg", "G47.00", perDay(1), [30],
    "00024542131", "13668000830", "Take 1 tablet by mouth at bedtime as needed for sleep"],
];

function drugOf(row: DrugRow, controlled: boolean): Drug {
  const [medicationName, drugForm, drugStrength, icdCode, dose, daysSupply, ndc, alternateNdc, sig] = row;
  return { medicationName, drugForm, drugStrength, ndc, alternateNdc, sig, dose, icdCode, controlled, daysSupply };
}

export const DRUGS: readonly Drug[] = [
  ...UNCONTROLLED_DRUGS.map((row) => drugOf(row, false)),
  ...CONTROLLED_DRUGS.map((row) => drugOf(row, true)),
];

// prettier-ignore
export const FEMALE_FIRST_NAMES = [
  "Maria", "Linda", "Aisha", "Mei", "Sofia", "Grace", "Hannah", "Fatima", "Olivia", "Rosa", "Keisha",
  "Ingrid", "Priya", "Naomi", "Carmen", "Yuki", "Abigail", "Chloe",
];
// prettier-ignore
export const MALE_FIRST_NAMES = [
  "James", "Robert", "Jamal", "Wei", "Luis", "Ethan", "Omar", "David", "Kwame", "Mateo", "Samuel", "Hiroshi",
  "Ivan", "Andre", "Thomas", "Rahul", "Liam", "Noah",
];
// prettier-ignore
export const MIDDLE_NAMES = [
  "Ann", "Marie", "Lee", "James", "Rose", "Elizabeth", "Michael", "Jo", "Alan", "Grace",
];
// prettier-ignore
export const LAST_NAMES = [
  "Johnson", "Nguyen", "Okafor", "Garcia", "Kowalski", "Patel", "O'Brien", "Smith-Jones", "Kim", "Haddad",
  "Rossi", "Washington", "Lindqvist", "Tanaka", "Mensah", "Hernandez", "Cohen", "MacLeod", "Novak", "Dubois",
  "Begay", "Ivanova", "Fernandes", "Yamamoto",
];
// prettier-ignore
export const STREETS = [
  "Maple Avenue", "Oak Street", "Cedar Lane", "Elm Drive", "Pine Road", "Washington Boulevard",
  "Lakeview Terrace", "Highland Avenue", "Park Place", "Church Street", "Mill Road", "Sunset Drive",
  "Riverside Court",
];
export type Place = { city: string; state: string; zip: string; areaCode: string };
export const PLACES: readonly Place[] = [
  { city: "Philadelphia", state: "PA", zip: "19103", areaCode: "215" },
  { city: "Pittsburgh", state: "PA", zip: "15213", areaCode: "412" },
  { city: "Columbus", state: "OH", zip: "43215", areaCode: "614" },
  { city: "Austin", state: "TX", zip: "78701", areaCode: "512" },
  { city: "Denver", state: "CO", zip: "80202", areaCode: "303" },
  { city: "Portland", state: "OR", zip: "97205", areaCode: "503" },
  { city: "Raleigh", state: "NC", zip: "27601", areaCode: "919" },
  { city: "Madison", state: "WI", zip: "53703", areaCode: "608" },
  { city: "Albuquerque", state: "NM", zip: "87102", areaCode: "505" },
  { city: "Tampa", state: "FL", zip: "33602", areaCode: "813" },
  { city: "Sacramento", state: "CA", zip: "95814", areaCode: "916" },
  { city: "Boise", state: "ID", zip: "83702", areaCode: "208" },
  { city: "Omaha", state: "NE", zip: "68102", areaCode: "402" },
  { city: "Richmond", state: "VA", zip: "23219", areaCode: "804" },
  { city: "Louisville", state: "KY", zip: "40202", areaCode: "502" },
  { city: "Washington", state: "DC", zip: "20001", areaCode: "202" },
  { city: "San Juan", state: "PR", zip: "00901", areaCode: "787" },
];
// prettier-ignore
export const ALLERGIES = [
  "Penicillin", "Sulfa drugs", "Codeine", "Aspirin", "Latex", "Peanuts", "Shellfish", "Iodinated contrast",
  "Amoxicillin", "Ibuprofen", "Morphine", "Eggs", "Cephalexin",
];
export const PLANS = [
  { planName: "Keystone Health PPO", bin: "610014", pcn: "ADV" },
  { planName: "Lakeshore Blue Choice", bin: "003858", pcn: "A4" },
  { planName: "Summit Care HMO", bin: "610097", pcn: "9999" },
  { planName: "Medicare Part D Standard", bin: "004336", pcn: "MEDDADV" },
  { planName: "State Employees Health Plan", bin: "015581", pcn: null },
  { planName: "Medicaid Managed Care", bin: "610494", pcn: "ACU" },
] as const;
