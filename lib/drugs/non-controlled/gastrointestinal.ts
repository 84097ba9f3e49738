// The gut: acid reducers, antiemetics (promethazine and its cough-syrup partners), antispasmodics and
// belladonna alkaloids, laxatives and antidiarrheals, and bowel and liver drugs.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const GASTROINTESTINAL = `
omeprazole | Prilosec |
esomeprazole | Nexium |
pantoprazole | Protonix |
lansoprazole | Prevacid |
rabeprazole | Aciphex |
dexlansoprazole | Dexilant |
famotidine | Pepcid |
cimetidine | Tagamet |
sucralfate | Carafate |
ondansetron | Zofran, Zuplenz |
metoclopramide | Reglan |
prochlorperazine | Compazine |
promethazine | Phenergan, Promethegan |
promethazine + phenylephrine | Promethazine VC |
promethazine + dextromethorphan | Promethazine DM |
meclizine | Antivert |
scopolamine | Transderm Scop |
dicyclomine | Bentyl |
hyoscyamine | Levsin, Levbid, Anaspaz, NuLev |
clidinium | |
belladonna | | belladonna alkaloids
atropine | Isopto Atropine |
homatropine | |
docusate | Colace |
polyethylene glycol | MiraLAX, GoLytely | PEG 3350, PEG
lactulose | Enulose, Kristalose |
loperamide | Imodium |
bisacodyl | Dulcolax |
senna | Senokot | sennosides
linaclotide | Linzess |
lubiprostone | Amitiza |
mesalamine | Lialda, Asacol, Apriso, Pentasa, Delzicol |
ursodiol | Actigall, Urso |
`;
