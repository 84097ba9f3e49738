// The pain relievers' classes: NSAIDs, salicylates and opioids, with the opioids' chemical groups (another
// opioid is a caution, worded "less likely" across groups).
import type { DrugClass } from "@/lib/drugs/allergy/allergy-types";

/** The opioids by chemical group: cross-sensitivity is likelier inside a group (the wording says so). */
const OPIOID_GROUPS: Readonly<Record<string, readonly string[]>> = {
  phenanthrene: [
    "codeine",
    "morphine",
    "hydrocodone",
    "benzhydrocodone",
    "oxycodone",
    "hydromorphone",
    "oxymorphone",
    "levorphanol",
    "dihydrocodeine",
    "buprenorphine",
    "butorphanol",
    "nalbuphine",
    "opium",
    "paregoric",
  ],
  phenylpiperidine: ["fentanyl", "sufentanil", "alfentanil", "remifentanil", "meperidine"],
  diphenylheptane: ["methadone"],
  benzomorphan: ["pentazocine"],
  "atypical opioid": ["tramadol", "tapentadol", "oliceridine"],
};

export const NSAIDS: DrugClass = {
  name: "NSAIDs",
  noun: "an NSAID",
  members: [
    "ibuprofen",
    "naproxen",
    "diclofenac",
    "meloxicam",
    "celecoxib",
    "etodolac",
    "nabumetone",
    "indomethacin",
    "ketorolac",
    "piroxicam",
    "sulindac",
    "oxaprozin",
    "ketoprofen",
    "flurbiprofen",
    "diflunisal",
    "mefenamic acid",
    "meclofenamate",
    "fenoprofen",
    "tolmetin",
  ],
  allergyTerms: [
    "nsaid",
    "nsaids",
    "nsaid s",
    "non steroidal anti inflammatory",
    "non steroidal anti inflammatories",
    "nonsteroidal anti inflammatory",
    "nonsteroidal anti inflammatory drugs",
    "non steroidal anti inflammatory drugs",
    "nonsteroidal anti inflammatories",
    "nonsteroidals",
  ],
  memberSeverity: "caution",
};

export const SALICYLATES: DrugClass = {
  name: "salicylates",
  noun: "a salicylate",
  members: ["aspirin", "salsalate", "bismuth subsalicylate"],
  allergyTerms: ["salicylate", "salicylates"],
  memberSeverity: "danger",
};

export const OPIOIDS: DrugClass = {
  name: "opioids",
  noun: "an opioid",
  members: Object.values(OPIOID_GROUPS).flat(),
  allergyTerms: [
    "opioid",
    "opioids",
    "opiate",
    "opiates",
    "narcotic",
    "narcotics",
    "narcotic analgesics",
    "opioid analgesics",
  ],
  memberSeverity: "caution",
  groups: OPIOID_GROUPS,
};
