// Gout, bone density, prostate and bladder, and erectile dysfunction.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const GOUT_BONE_AND_UROLOGY = `
allopurinol | Zyloprim |
febuxostat | Uloric |
colchicine | Colcrys, Mitigare, Gloperba |
probenecid | |
alendronate | Fosamax, Binosto |
ibandronate | Boniva |
risedronate | Actonel, Atelvia |
raloxifene | Evista |
finasteride | Proscar, Propecia |
dutasteride | Avodart |
tamsulosin | Flomax |
alfuzosin | Uroxatral |
oxybutynin | Ditropan, Oxytrol |
tolterodine | Detrol |
solifenacin | Vesicare |
mirabegron | Myrbetriq |
sildenafil | Viagra, Revatio |
tadalafil | Cialis, Adcirca |
vardenafil | Levitra, Staxyn |
phenazopyridine | Pyridium, Azo |
`;
