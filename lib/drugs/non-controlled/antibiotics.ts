// Antibiotics: the penicillins, cephalosporins and carbapenems with their beta-lactamase inhibitors,
// macrolides, fluoroquinolones, tetracyclines, sulfonamides, aminoglycosides and the rest.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const ANTIBIOTICS = `
amoxicillin | Amoxil, Moxatag | amox
clavulanate | | clavulanic acid, clav
amoxicillin + clavulanate | Augmentin, Amoclan |
ampicillin | Principen |
sulbactam | |
ampicillin + sulbactam | Unasyn |
penicillin | | PCN
penicillin v | Veetids, Beepen-VK | penicillin vk, pen vk, penicillin v potassium, phenoxymethylpenicillin
penicillin g | Bicillin, Bicillin L-A, Pfizerpen | penicillin g benzathine, penicillin g potassium, penicillin g procaine, benzylpenicillin
dicloxacillin | |
nafcillin | Nallpen |
oxacillin | Bactocill |
piperacillin | |
tazobactam | |
piperacillin + tazobactam | Zosyn |
cephalexin | Keflex, Daxbia | cefalexin
cefadroxil | Duricef |
cefazolin | Ancef |
cefuroxime | Ceftin, Zinacef |
cefprozil | Cefzil |
cefaclor | Ceclor |
cefdinir | Omnicef |
cefpodoxime | Vantin |
cefixime | Suprax |
cefditoren | Spectracef |
ceftriaxone | Rocephin |
cefotaxime | Claforan |
cefoxitin | Mefoxin |
ceftazidime | Fortaz, Tazicef |
avibactam | |
ceftazidime + avibactam | Avycaz |
ceftolozane + tazobactam | Zerbaxa |
cefepime | Maxipime |
ceftaroline | Teflaro |
cefiderocol | Fetroja |
cilastatin | |
imipenem + cilastatin | Primaxin |
meropenem | Merrem |
ertapenem | Invanz |
doripenem | Doribax |
aztreonam | Azactam, Cayston |
azithromycin | Zithromax, Z-Pak, Zmax, AzaSite |
clarithromycin | Biaxin |
erythromycin | Ery-Tab, EryPed, Erythrocin, Eryc, PCE, Ilotycin |
fidaxomicin | Dificid |
ciprofloxacin | Cipro, Ciloxan |
levofloxacin | Levaquin |
moxifloxacin | Avelox, Vigamox, Moxeza |
ofloxacin | Ocuflox, Floxin |
delafloxacin | Baxdela |
doxycycline | Vibramycin, Doryx, Acticlate, Oracea, Monodox, Targadox, Periostat |
minocycline | Minocin, Solodyn, Dynacin, Ximino, Amzeeq |
tetracycline | Sumycin |
demeclocycline | Declomycin |
sarecycline | Seysara |
omadacycline | Nuzyra |
tigecycline | Tygacil |
sulfamethoxazole | | SMX, SMZ
trimethoprim | Primsol | TMP
sulfamethoxazole + trimethoprim | Bactrim, Septra, Sulfatrim | co-trimoxazole, cotrimoxazole
sulfadiazine | |
silver sulfadiazine | Silvadene, SSD |
sulfacetamide | Bleph-10, Klaron, Ovace |
sulfisoxazole | |
sulfasalazine | Azulfidine |
nitrofurantoin | Macrobid, Macrodantin, Furadantin |
metronidazole | Flagyl, MetroGel, Nuvessa, Noritate |
tinidazole | Tindamax |
clindamycin | Cleocin, Clindagel, Evoclin, Clindesse |
vancomycin | Vancocin, Firvanq |
linezolid | Zyvox |
rifampin | Rifadin | rifampicin
isoniazid | | INH
fosfomycin | Monurol |
methenamine | Hiprex, Urex |
gentamicin | Garamycin |
tobramycin | Tobrex, TOBI, Bethkis |
amikacin | Arikayce |
neomycin | |
polymyxin b | |
bacitracin | |
mupirocin | Bactroban, Centany |
`;
