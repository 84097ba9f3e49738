// The antibiotic classes. Members of each cross-react as a rule (an allergy to one member is a danger for
// the others), except the cephalosporins (a caution).
import type { DrugClass } from "@/lib/drugs/allergy/allergy-types";

export const PENICILLINS: DrugClass = {
  name: "penicillins",
  noun: "a penicillin",
  members: [
    "penicillin",
    "penicillin v",
    "penicillin g",
    "amoxicillin",
    "ampicillin",
    "dicloxacillin",
    "nafcillin",
    "oxacillin",
    "piperacillin",
  ],
  allergyTerms: ["penicillin", "penicillins", "pcn", "pcns", "pen", "penicillin class", "penicillin family"],
  memberSeverity: "danger",
};

export const CEPHALOSPORINS: DrugClass = {
  name: "cephalosporins",
  noun: "a cephalosporin",
  members: [
    "cephalexin",
    "cefadroxil",
    "cefazolin",
    "cefuroxime",
    "cefprozil",
    "cefaclor",
    "cefdinir",
    "cefpodoxime",
    "cefixime",
    "cefditoren",
    "ceftriaxone",
    "cefotaxime",
    "cefoxitin",
    "ceftazidime",
    "ceftolozane",
    "cefepime",
    "ceftaroline",
    "cefiderocol",
  ],
  allergyTerms: ["cephalosporin", "cephalosporins", "cephs", "cephalosporin class"],
  memberSeverity: "caution",
};

export const CARBAPENEMS: DrugClass = {
  name: "carbapenems",
  noun: "a carbapenem",
  members: ["imipenem", "meropenem", "ertapenem", "doripenem"],
  allergyTerms: ["carbapenem", "carbapenems"],
  memberSeverity: "danger",
};

export const SULFONAMIDE_ANTIBIOTICS: DrugClass = {
  name: "sulfonamide antibiotics",
  noun: "a sulfonamide antibiotic",
  members: [
    "sulfamethoxazole",
    "sulfadiazine",
    "silver sulfadiazine",
    "sulfisoxazole",
    "sulfacetamide",
    "sulfasalazine",
  ],
  allergyTerms: [
    "sulfa",
    "sulfas",
    "sulpha",
    "sulfa drugs",
    "sulfa antibiotics",
    "sulfonamide",
    "sulfonamides",
    "sulphonamides",
    "sulfonamide antibiotics",
    "sulfa class",
  ],
  memberSeverity: "danger",
};

export const MACROLIDES: DrugClass = {
  name: "macrolides",
  noun: "a macrolide",
  members: ["azithromycin", "clarithromycin", "erythromycin", "fidaxomicin"],
  allergyTerms: ["macrolide", "macrolides"],
  memberSeverity: "danger",
};

export const FLUOROQUINOLONES: DrugClass = {
  name: "fluoroquinolones",
  noun: "a fluoroquinolone",
  members: ["ciprofloxacin", "levofloxacin", "moxifloxacin", "ofloxacin", "delafloxacin"],
  allergyTerms: ["fluoroquinolone", "fluoroquinolones", "quinolone", "quinolones"],
  memberSeverity: "danger",
};

export const TETRACYCLINES: DrugClass = {
  name: "tetracyclines",
  noun: "a tetracycline",
  members: [
    "doxycycline",
    "minocycline",
    "tetracycline",
    "demeclocycline",
    "sarecycline",
    "omadacycline",
    "tigecycline",
  ],
  allergyTerms: ["tetracyclines", "tetracycline class"],
  memberSeverity: "danger",
};

export const AMINOGLYCOSIDES: DrugClass = {
  name: "aminoglycosides",
  noun: "an aminoglycoside",
  members: ["gentamicin", "tobramycin", "amikacin", "neomycin"],
  allergyTerms: ["aminoglycoside", "aminoglycosides"],
  memberSeverity: "danger",
};

export const LINCOSAMIDES: DrugClass = {
  name: "lincosamides",
  noun: "a lincosamide",
  members: ["clindamycin"],
  allergyTerms: ["lincosamide", "lincosamides"],
  memberSeverity: "danger",
};
