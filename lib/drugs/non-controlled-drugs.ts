// Drugs known NOT to be federally controlled: the common US retail prescription drugs (about the top 300
// by prescriptions, by generic name, with major brands), the non-controlled partners of controlled
// combinations (acetaminophen, guaifenesin, naloxone…), and the antibiotics and other members of the
// allergy classes. A name counts as "not controlled" only when everything in it is found here and nothing
// in the controlled table: a drug in neither list is "unknown", never silently non-controlled.
//
// One line per product: generic names joined by " + " | brands | other spellings and abbreviations.
// A combination line also makes each of its generics known on its own.
//
// The lines live in one file per drug class under non-controlled/; this module joins them in that order.
import { ANALGESICS } from "@/lib/drugs/non-controlled/analgesics";
import { ANTIBIOTICS } from "@/lib/drugs/non-controlled/antibiotics";
import { ANTIFUNGALS_ANTIVIRALS_AND_ANTIPARASITICS } from "@/lib/drugs/non-controlled/antifungals-antivirals-and-antiparasitics";
import { CARDIOVASCULAR } from "@/lib/drugs/non-controlled/cardiovascular";
import { DIABETES_AND_THYROID } from "@/lib/drugs/non-controlled/diabetes-and-thyroid";
import { GASTROINTESTINAL } from "@/lib/drugs/non-controlled/gastrointestinal";
import { MENTAL_HEALTH_AND_SLEEP } from "@/lib/drugs/non-controlled/mental-health-and-sleep";
import { NEUROLOGY } from "@/lib/drugs/non-controlled/neurology";
import { ADDICTION_AND_OPIOID_REVERSAL } from "@/lib/drugs/non-controlled/addiction-and-opioid-reversal";
import { STEROIDS_RESPIRATORY_AND_ALLERGY } from "@/lib/drugs/non-controlled/steroids-respiratory-and-allergy";
import { EYE } from "@/lib/drugs/non-controlled/eye";
import { IMMUNOLOGY } from "@/lib/drugs/non-controlled/immunology";
import { GOUT_BONE_AND_UROLOGY } from "@/lib/drugs/non-controlled/gout-bone-and-urology";
import { HORMONES_AND_WOMENS_HEALTH } from "@/lib/drugs/non-controlled/hormones-and-womens-health";
import { VITAMINS_AND_MINERALS } from "@/lib/drugs/non-controlled/vitamins-and-minerals";
import { SKIN } from "@/lib/drugs/non-controlled/skin";

export const NON_CONTROLLED_TABLE = [
  ANALGESICS,
  ANTIBIOTICS,
  ANTIFUNGALS_ANTIVIRALS_AND_ANTIPARASITICS,
  CARDIOVASCULAR,
  DIABETES_AND_THYROID,
  GASTROINTESTINAL,
  MENTAL_HEALTH_AND_SLEEP,
  NEUROLOGY,
  ADDICTION_AND_OPIOID_REVERSAL,
  STEROIDS_RESPIRATORY_AND_ALLERGY,
  EYE,
  IMMUNOLOGY,
  GOUT_BONE_AND_UROLOGY,
  HORMONES_AND_WOMENS_HEALTH,
  VITAMINS_AND_MINERALS,
  SKIN,
].join("");
