// Schedule II non-narcotics (21 CFR 1308.12): the amphetamines and methylphenidates, nabilone, and the
// short-acting barbiturates.
import type { ControlledSubstance } from "@/lib/drugs/controlled/entry-types";

export const SCHEDULE_II_STIMULANTS_AND_DEPRESSANTS: readonly ControlledSubstance[] = [
  {
    substance: "amphetamine",
    schedule: "II",
    narcotic: false,
    salts: ["sulfate", "aspartate"],
    brands: ["Evekeo", "Adzenys", "Dyanavel"],
    aliases: ["amphetamine salts", "mixed amphetamine salts", "MAS"],
    products: [{ brands: ["Adderall", "Mydayis"], with: ["dextroamphetamine"] }],
  },
  {
    substance: "dextroamphetamine",
    schedule: "II",
    narcotic: false,
    salts: ["sulfate", "saccharate"],
    brands: ["Dexedrine", "Zenzedi", "ProCentra", "Xelstrym", "Dextrostat"],
    aliases: ["dexamphetamine", "d-amphetamine"],
  },
  {
    substance: "lisdexamfetamine",
    schedule: "II",
    narcotic: false,
    salts: ["dimesylate"],
    brands: ["Vyvanse"],
    aliases: ["lisdexamphetamine"],
  },
  { substance: "methamphetamine", schedule: "II", narcotic: false, salts: ["hydrochloride"], brands: ["Desoxyn"] },
  {
    substance: "methylphenidate",
    schedule: "II",
    narcotic: false,
    salts: ["hydrochloride"],
    brands: [
      "Ritalin",
      "Concerta",
      "Metadate",
      "Methylin",
      "Daytrana",
      "QuilliChew",
      "Quillivant",
      "Cotempla",
      "Aptensio",
      "Jornay",
      "Relexxii",
      "Adhansia",
    ],
  },
  { substance: "dexmethylphenidate", schedule: "II", narcotic: false, salts: ["hydrochloride"], brands: ["Focalin"] },
  { substance: "nabilone", schedule: "II", narcotic: false, brands: ["Cesamet"] },
  { substance: "pentobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Nembutal"] },
  { substance: "secobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Seconal"] },
  { substance: "amobarbital", schedule: "II", narcotic: false, salts: ["sodium"], brands: ["Amytal"] },
];
