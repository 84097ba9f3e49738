// The heart and metabolism classes: ACE inhibitors (a danger for one another), ARBs, statins,
// sulfonylureas and thiazide diuretics.
import type { DrugClass } from "@/lib/drugs/allergy/allergy-types";

export const ACE_INHIBITORS: DrugClass = {
  name: "ACE inhibitors",
  noun: "an ACE inhibitor",
  members: [
    "lisinopril",
    "enalapril",
    "ramipril",
    "benazepril",
    "quinapril",
    "fosinopril",
    "captopril",
    "perindopril",
    "trandolapril",
    "moexipril",
  ],
  allergyTerms: ["ace inhibitor", "ace inhibitors", "acei", "aceis", "ace i", "ace"],
  memberSeverity: "danger",
};

export const ARBS: DrugClass = {
  name: "ARBs",
  noun: "an angiotensin receptor blocker",
  members: ["losartan", "valsartan", "olmesartan", "irbesartan", "telmisartan", "candesartan", "azilsartan"],
  allergyTerms: [
    "arb",
    "arbs",
    "angiotensin receptor blocker",
    "angiotensin receptor blockers",
    "angiotensin ii receptor blockers",
  ],
  memberSeverity: "caution",
};

export const STATINS: DrugClass = {
  name: "statins",
  noun: "a statin",
  members: ["atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "lovastatin", "pitavastatin", "fluvastatin"],
  allergyTerms: ["statin", "statins", "hmg coa reductase inhibitors"],
  memberSeverity: "caution",
};

export const SULFONYLUREAS: DrugClass = {
  name: "sulfonylureas",
  noun: "a sulfonylurea",
  members: ["glipizide", "glimepiride", "glyburide"],
  allergyTerms: ["sulfonylurea", "sulfonylureas"],
  memberSeverity: "caution",
};

export const THIAZIDE_DIURETICS: DrugClass = {
  name: "thiazide diuretics",
  noun: "a thiazide diuretic",
  members: ["hydrochlorothiazide", "chlorthalidone", "metolazone", "indapamide"],
  allergyTerms: ["thiazide", "thiazides", "thiazide diuretics"],
  memberSeverity: "caution",
};
