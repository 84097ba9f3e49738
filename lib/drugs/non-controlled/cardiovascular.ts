// The heart and blood vessels: lipid-lowering drugs, blood-pressure drugs and diuretics, antianginals,
// antiarrhythmics, anticoagulants and antiplatelets.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const CARDIOVASCULAR = `
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
`;
