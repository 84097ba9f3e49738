// Drugs known NOT to be federally controlled: the common US retail prescription drugs (about the top 300
// by prescriptions, by generic name, with major brands), the non-controlled partners of controlled
// combinations (acetaminophen, guaifenesin, naloxone…), and the antibiotics and other members of the
// allergy classes. A name counts as "not controlled" only when everything in it is found here and nothing
// in the controlled table: a drug in neither list is "unknown", never silently non-controlled.
//
// One line per product: generic names joined by " + " | brands | other spellings and abbreviations.
// A combination line also makes each of its generics known on its own.

export const NON_CONTROLLED_TABLE = `
acetaminophen | Tylenol, Ofirmev, Mapap, Feverall | APAP, paracetamol, acetaminophen
aspirin | Bayer, Ecotrin, Bufferin, Durlaza, Vazalore | ASA, acetylsalicylic acid
ibuprofen | Advil, Motrin, Caldolor, Midol |
naproxen | Naprosyn, Aleve, Anaprox, Naprelan, EC-Naprosyn |
diclofenac | Voltaren, Cataflam, Zipsor, Zorvolex, Cambia, Flector, Pennsaid |
diclofenac + misoprostol | Arthrotec |
meloxicam | Mobic, Vivlodex, Qmiiz, Anjeso |
celecoxib | Celebrex, Elyxyb |
etodolac | Lodine |
nabumetone | Relafen |
indomethacin | Indocin, Tivorbex |
ketorolac | Toradol, Sprix, Acular |
piroxicam | Feldene |
sulindac | Clinoril |
oxaprozin | Daypro |
ketoprofen | |
flurbiprofen | Ansaid, Ocufen |
diflunisal | |
mefenamic acid | Ponstel |
meclofenamate | |
fenoprofen | Nalfon |
tolmetin | |
salsalate | Disalcid |
bismuth subsalicylate | Pepto-Bismol, Kaopectate |
caffeine | |
acetaminophen + aspirin + caffeine | Excedrin, Goody's, BC Powder |
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
atorvastatin | Lipitor |
simvastatin | Zocor |
rosuvastatin | Crestor, Ezallor |
pravastatin | Pravachol |
lovastatin | Mevacor, Altoprev |
pitavastatin | Livalo, Zypitamag |
fluvastatin | Lescol |
ezetimibe | Zetia |
ezetimibe + simvastatin | Vytorin |
fenofibrate | Tricor, Trilipix, Lipofen, Fenoglide, Antara | fenofibric acid
gemfibrozil | Lopid |
icosapent ethyl | Vascepa |
omega-3-acid ethyl esters | Lovaza | omega 3 fatty acids, fish oil
niacin | Niaspan |
colesevelam | Welchol |
evolocumab | Repatha |
alirocumab | Praluent |
amlodipine | Norvasc, Katerzia |
amlodipine + atorvastatin | Caduet |
amlodipine + benazepril | Lotrel |
amlodipine + olmesartan | Azor |
amlodipine + valsartan | Exforge |
lisinopril | Prinivil, Zestril, Qbrelis |
lisinopril + hydrochlorothiazide | Zestoretic, Prinzide |
enalapril | Vasotec, Epaned |
ramipril | Altace |
benazepril | Lotensin |
quinapril | Accupril |
fosinopril | |
captopril | |
perindopril | Aceon |
trandolapril | Mavik |
moexipril | |
losartan | Cozaar |
losartan + hydrochlorothiazide | Hyzaar |
valsartan | Diovan |
valsartan + hydrochlorothiazide | Diovan HCT |
sacubitril + valsartan | Entresto |
olmesartan | Benicar |
olmesartan + hydrochlorothiazide | Benicar HCT |
irbesartan | Avapro |
telmisartan | Micardis |
candesartan | Atacand |
azilsartan | Edarbi |
hydrochlorothiazide | Microzide | HCTZ, HCT
chlorthalidone | Thalitone, Hygroton |
triamterene + hydrochlorothiazide | Dyazide, Maxzide |
spironolactone | Aldactone, CaroSpir |
furosemide | Lasix, Furoscix |
bumetanide | Bumex |
torsemide | Demadex, Soaanz |
metolazone | Zaroxolyn |
indapamide | |
acetazolamide | Diamox |
metoprolol | Lopressor, Toprol, Toprol-XL, Kapspargo |
atenolol | Tenormin |
carvedilol | Coreg |
propranolol | Inderal, InnoPran, Hemangeol |
labetalol | Trandate |
nebivolol | Bystolic |
bisoprolol | Zebeta |
bisoprolol + hydrochlorothiazide | Ziac |
nadolol | Corgard |
sotalol | Betapace, Sotylize |
diltiazem | Cardizem, Cartia, Tiazac, Taztia, Matzim, Dilt-XR |
verapamil | Calan, Verelan, Isoptin |
nifedipine | Procardia, Adalat |
felodipine | Plendil |
clonidine | Catapres, Kapvay |
guanfacine | Intuniv, Tenex |
hydralazine | |
isosorbide mononitrate | Imdur, Monoket | ISMN
isosorbide dinitrate | Isordil, Dilatrate | ISDN
nitroglycerin | Nitrostat, Nitro-Dur, Nitrolingual, Nitro-Bid | NTG, glyceryl trinitrate
doxazosin | Cardura |
terazosin | Hytrin |
prazosin | Minipress |
amiodarone | Pacerone, Cordarone, Nexterone |
digoxin | Lanoxin |
flecainide | Tambocor |
dofetilide | Tikosyn |
ranolazine | Ranexa |
warfarin | Coumadin, Jantoven |
apixaban | Eliquis |
rivaroxaban | Xarelto |
dabigatran | Pradaxa |
enoxaparin | Lovenox |
heparin | |
clopidogrel | Plavix |
ticagrelor | Brilinta |
prasugrel | Effient |
cilostazol | Pletal |
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
sertraline | Zoloft |
escitalopram | Lexapro |
citalopram | Celexa |
fluoxetine | Prozac, Sarafem |
paroxetine | Paxil, Pexeva, Brisdelle |
venlafaxine | Effexor |
desvenlafaxine | Pristiq |
duloxetine | Cymbalta, Drizalma |
bupropion | Wellbutrin, Zyban, Aplenzin, Forfivo |
naltrexone + bupropion | Contrave |
dextromethorphan + bupropion | Auvelity |
mirtazapine | Remeron |
trazodone | Desyrel, Oleptro |
vilazodone | Viibryd |
vortioxetine | Trintellix |
amitriptyline | Elavil |
nortriptyline | Pamelor |
doxepin | Silenor, Sinequan, Zonalon |
imipramine | Tofranil |
clomipramine | Anafranil |
buspirone | Buspar |
hydroxyzine | Atarax, Vistaril |
quetiapine | Seroquel |
aripiprazole | Abilify |
olanzapine | Zyprexa |
risperidone | Risperdal |
ziprasidone | Geodon |
lurasidone | Latuda |
brexpiprazole | Rexulti |
cariprazine | Vraylar |
paliperidone | Invega |
haloperidol | Haldol |
lithium | Lithobid |
atomoxetine | Strattera |
viloxazine | Qelbree |
pitolisant | Wakix |
ramelteon | Rozerem |
tasimelteon | Hetlioz |
melatonin | |
doxylamine | Unisom |
doxylamine + pyridoxine | Diclegis, Bonjesta |
donepezil | Aricept |
memantine | Namenda |
rivastigmine | Exelon |
galantamine | Razadyne |
ropinirole | Requip |
pramipexole | Mirapex |
carbidopa + levodopa | Sinemet, Rytary, Dhivy |
benztropine | Cogentin |
amantadine | Gocovri, Osmolex |
gabapentin | Neurontin, Gralise, Horizant |
topiramate | Topamax, Trokendi, Qudexy, Eprontia |
lamotrigine | Lamictal, Subvenite |
levetiracetam | Keppra, Spritam, Elepsia |
carbamazepine | Tegretol, Carbatrol, Epitol, Equetro |
oxcarbazepine | Trileptal, Oxtellar |
eslicarbazepine | Aptiom |
phenytoin | Dilantin, Phenytek |
fosphenytoin | Cerebyx |
divalproex | Depakote |
valproic acid | Depakene | valproate
zonisamide | Zonegran |
primidone | Mysoline |
tiagabine | Gabitril |
rufinamide | Banzel |
felbamate | Felbatol |
vigabatrin | Sabril |
ethosuximide | Zarontin |
cannabidiol | Epidiolex | CBD
sumatriptan | Imitrex, Tosymra, Zembrace |
rizatriptan | Maxalt |
zolmitriptan | Zomig |
eletriptan | Relpax |
naratriptan | Amerge |
ubrogepant | Ubrelvy |
rimegepant | Nurtec |
atogepant | Qulipta |
cyclobenzaprine | Flexeril, Amrix, Fexmid |
methocarbamol | Robaxin |
tizanidine | Zanaflex |
baclofen | Lioresal, Ozobax, Fleqsuvy, Lyvispah |
metaxalone | Skelaxin |
orphenadrine | Norflex |
chlorzoxazone | Parafon Forte, Lorzone |
dantrolene | Dantrium, Ryanodex |
naloxone | Narcan, Zimhi, Kloxxado |
naltrexone | Vivitrol, Revia |
nalbuphine | Nubain |
lofexidine | Lucemyra |
varenicline | Chantix, Tyrvaya |
nicotine | Nicoderm, Nicorette, Nicotrol, Habitrol |
disulfiram | Antabuse |
acamprosate | Campral |
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
latanoprost | Xalatan |
timolol | Timoptic |
dorzolamide | Trusopt |
dorzolamide + timolol | Cosopt |
brimonidine | Alphagan, Lumify |
bimatoprost | Lumigan, Latisse |
travoprost | Travatan |
tobramycin + dexamethasone | TobraDex |
ciprofloxacin + dexamethasone | Ciprodex |
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
estradiol | Estrace, Vivelle, Vivelle-Dot, Climara, Divigel, Evamist, Vagifem, Estring, Minivelle, Alora, Elestrin |
conjugated estrogens | Premarin |
esterified estrogens | Menest |
medroxyprogesterone | Provera, Depo-Provera |
progesterone | Prometrium |
norethindrone | Aygestin, Camila, Errin, Micronor, Heather |
ethinyl estradiol | | EE
levonorgestrel | Plan B, Mirena, Kyleena |
ethinyl estradiol + norethindrone | Loestrin, Junel, Microgestin, Blisovi |
ethinyl estradiol + levonorgestrel | Seasonique, Aviane, Levora, Lutera |
ethinyl estradiol + norgestimate | Sprintec, Tri-Sprintec, Ortho Tri-Cyclen, Mono-Linyah |
ethinyl estradiol + drospirenone | Yaz, Yasmin |
ethinyl estradiol + desogestrel | Apri |
clomiphene | Clomid |
letrozole | Femara |
anastrozole | Arimidex |
tamoxifen | Soltamox |
tranexamic acid | Lysteda |
misoprostol | Cytotec |
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
