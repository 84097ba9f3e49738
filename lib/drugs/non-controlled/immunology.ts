// Immunosuppressants, DMARDs and biologics.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const IMMUNOLOGY = `
cyclosporine | Neoral, Sandimmune, Gengraf, Restasis |
tacrolimus | Prograf, Envarsus, Protopic |
pimecrolimus | Elidel |
mycophenolate | CellCept, Myfortic |
azathioprine | Imuran |
methotrexate | Trexall, Otrexup, Rasuvo, Xatmep | MTX
leflunomide | Arava |
tofacitinib | Xeljanz |
upadacitinib | Rinvoq |
apremilast | Otezla |
adalimumab | Humira |
etanercept | Enbrel |
ustekinumab | Stelara |
dupilumab | Dupixent |
secukinumab | Cosentyx |
`;
