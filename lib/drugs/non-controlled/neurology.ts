// Neurology: dementia and Parkinson's drugs, the uncontrolled antiepileptics (gabapentin, cannabidiol),
// migraine drugs and muscle relaxants.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const NEUROLOGY = `
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
`;
