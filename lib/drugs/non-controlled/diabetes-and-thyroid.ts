// Diabetes (oral drugs, GLP-1 agonists, insulins, glucagon) and the thyroid.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const DIABETES_AND_THYROID = `
metformin | Glucophage, Glumetza, Fortamet, Riomet |
sitagliptin | Januvia |
sitagliptin + metformin | Janumet |
linagliptin | Tradjenta |
saxagliptin | Onglyza |
alogliptin | Nesina |
empagliflozin | Jardiance |
empagliflozin + metformin | Synjardy |
empagliflozin + linagliptin | Glyxambi |
dapagliflozin | Farxiga |
dapagliflozin + metformin | Xigduo |
canagliflozin | Invokana |
pioglitazone | Actos |
glipizide | Glucotrol |
glimepiride | Amaryl |
glyburide | Diabeta, Glynase, Micronase | glibenclamide
semaglutide | Ozempic, Wegovy, Rybelsus |
dulaglutide | Trulicity |
liraglutide | Victoza, Saxenda |
tirzepatide | Mounjaro, Zepbound |
exenatide | Byetta, Bydureon |
insulin | |
insulin glargine | Lantus, Basaglar, Toujeo, Semglee, Rezvoglar |
insulin lispro | Humalog, Admelog, Lyumjev |
insulin aspart | Novolog, Fiasp |
insulin detemir | Levemir |
insulin degludec | Tresiba |
insulin human | Humulin, Novolin, Afrezza | insulin regular, insulin nph, insulin isophane
glucagon | Baqsimi, Gvoke |
levothyroxine | Synthroid, Levoxyl, Unithroid, Euthyrox, Tirosint, Levo-T | T4, L-thyroxine
liothyronine | Cytomel | T3
thyroid | Armour Thyroid, NP Thyroid | desiccated thyroid
methimazole | Tapazole |
propylthiouracil | | PTU
`;
