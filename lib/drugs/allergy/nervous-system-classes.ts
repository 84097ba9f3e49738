// The nervous system's classes: the aromatic anticonvulsants (which cross-react as a rule) and the
// benzodiazepines.
import type { DrugClass } from "@/lib/drugs/allergy/allergy-types";

export const AROMATIC_ANTICONVULSANTS: DrugClass = {
  name: "aromatic anticonvulsants",
  noun: "an aromatic anticonvulsant",
  members: [
    "carbamazepine",
    "oxcarbazepine",
    "eslicarbazepine",
    "phenytoin",
    "fosphenytoin",
    "phenobarbital",
    "primidone",
    "lamotrigine",
  ],
  allergyTerms: [
    "aromatic anticonvulsant",
    "aromatic anticonvulsants",
    "aromatic antiepileptic",
    "aromatic antiepileptics",
  ],
  memberSeverity: "danger",
};

export const BENZODIAZEPINES: DrugClass = {
  name: "benzodiazepines",
  noun: "a benzodiazepine",
  members: [
    "alprazolam",
    "lorazepam",
    "clonazepam",
    "diazepam",
    "temazepam",
    "triazolam",
    "chlordiazepoxide",
    "clorazepate",
    "oxazepam",
    "estazolam",
    "flurazepam",
    "midazolam",
    "clobazam",
    "quazepam",
    "remimazolam",
  ],
  allergyTerms: ["benzodiazepine", "benzodiazepines", "benzo", "benzos"],
  memberSeverity: "caution",
};
