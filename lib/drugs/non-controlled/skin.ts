// The skin: topical anaesthetics, acne drugs, scabicides and the rest.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const SKIN = `
lidocaine | Lidoderm, Xylocaine, ZTlido |
lidocaine + prilocaine | EMLA |
capsaicin | Qutenza, Zostrix |
benzoyl peroxide | |
clindamycin + benzoyl peroxide | BenzaClin, Duac, Onexton |
tretinoin | Retin-A, Atralin, Renova |
adapalene | Differin |
isotretinoin | Accutane, Absorica, Claravis, Amnesteem |
permethrin | Elimite, Nix |
hydroquinone | |
cod liver oil | |
`;
