// Antifungals (with betamethasone, Lotrisone's partner), antivirals and antiparasitics.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const ANTIFUNGALS_ANTIVIRALS_AND_ANTIPARASITICS = `
fluconazole | Diflucan |
ketoconazole | Nizoral |
itraconazole | Sporanox |
voriconazole | Vfend |
terbinafine | Lamisil |
nystatin | Mycostatin |
clotrimazole | Lotrimin, Mycelex |
betamethasone | Diprolene, Celestone, Luxiq |
clotrimazole + betamethasone | Lotrisone |
miconazole | Monistat |
valacyclovir | Valtrex |
acyclovir | Zovirax |
famciclovir | Famvir |
oseltamivir | Tamiflu |
baloxavir | Xofluza |
nirmatrelvir + ritonavir | Paxlovid |
molnupiravir | Lagevrio |
hydroxychloroquine | Plaquenil |
ivermectin | Stromectol, Soolantra, Sklice |
albendazole | Albenza |
`;
