// Vitamins, minerals and electrolytes, and phosphate binders.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const VITAMINS_AND_MINERALS = `
folic acid | | folate
cyanocobalamin | | vitamin b12, b12
ergocalciferol | Drisdol | vitamin d2, vitamin d
cholecalciferol | | vitamin d3
pyridoxine | | vitamin b6
thiamine | | vitamin b1
prenatal vitamins | | prenatal vitamin, prenatal multivitamin
multivitamin | | multivitamins
ferrous sulfate | Feosol | iron
potassium chloride | Klor-Con, K-Tab, K-Dur, Micro-K | KCl
potassium citrate | Urocit-K |
calcium carbonate | Tums, Os-Cal |
calcium acetate | PhosLo |
magnesium oxide | Mag-Ox |
sodium bicarbonate | |
sodium chloride | | saline
sodium fluoride | |
sevelamer | Renvela, Renagel |
`;
