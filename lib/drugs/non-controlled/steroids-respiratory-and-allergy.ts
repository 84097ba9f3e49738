// Corticosteroids, inhalers, cough and cold ingredients (the non-controlled partners of codeine and
// hydrocodone syrups), antihistamines and epinephrine.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const STEROIDS_RESPIRATORY_AND_ALLERGY = `
prednisone | Deltasone, Rayos |
prednisolone | Orapred, Millipred, Pediapred, Pred Forte |
methylprednisolone | Medrol, Solu-Medrol, Depo-Medrol |
dexamethasone | Decadron, Hemady, Dexamethasone Intensol |
hydrocortisone | Cortef, Solu-Cortef, Cortaid, Anusol-HC, Proctofoam-HC |
triamcinolone | Kenalog, Nasacort, Triesence, Zilretta |
clobetasol | Temovate, Clobex, Olux |
fluocinonide | Lidex, Vanos |
mometasone | Nasonex, Asmanex, Elocon |
fluticasone | Flonase, Flovent, Arnuity, Xhance, Cutivate |
budesonide | Pulmicort, Entocort, Uceris, Rhinocort, Ortikos |
beclomethasone | Qvar, Beconase |
ciclesonide | Alvesco, Omnaris |
budesonide + formoterol | Symbicort, Breyna |
fluticasone + salmeterol | Advair, Wixela, AirDuo |
fluticasone + vilanterol | Breo |
fluticasone + umeclidinium + vilanterol | Trelegy |
umeclidinium + vilanterol | Anoro |
mometasone + formoterol | Dulera |
albuterol | ProAir, Proventil, Ventolin, AccuNeb | salbutamol
levalbuterol | Xopenex |
ipratropium | Atrovent |
ipratropium + albuterol | Combivent, DuoNeb |
tiotropium | Spiriva |
umeclidinium | Incruse |
salmeterol | Serevent |
formoterol | Perforomist, Foradil |
montelukast | Singulair |
benzonatate | Tessalon |
guaifenesin | Mucinex, Robitussin, Humibid |
dextromethorphan | Delsym | DM
guaifenesin + dextromethorphan | Robitussin DM, Mucinex DM |
guaifenesin + pseudoephedrine | Mucinex D |
pseudoephedrine | Sudafed |
phenylephrine | Sudafed PE, Neo-Synephrine |
chlorpheniramine | Chlor-Trimeton |
brompheniramine | |
dexchlorpheniramine | |
pyrilamine | |
triprolidine | |
diphenhydramine | Benadryl |
cetirizine | Zyrtec |
levocetirizine | Xyzal |
loratadine | Claritin |
fexofenadine | Allegra |
azelastine | Astelin, Astepro, Optivar |
olopatadine | Patanol, Pataday, Pazeo, Patanase |
cyproheptadine | Periactin |
epinephrine | EpiPen, Epi-Pen, Auvi-Q, Adrenaclick, Symjepi, Neffy | adrenaline, epi
`;
