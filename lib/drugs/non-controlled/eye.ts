// Eye drops: glaucoma drugs and the ophthalmic and otic combinations.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const EYE = `
latanoprost | Xalatan |
timolol | Timoptic |
dorzolamide | Trusopt |
dorzolamide + timolol | Cosopt |
brimonidine | Alphagan, Lumify |
bimatoprost | Lumigan, Latisse |
travoprost | Travatan |
tobramycin + dexamethasone | TobraDex |
ciprofloxacin + dexamethasone | Ciprodex |
`;
