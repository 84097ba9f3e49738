// Mental health and sleep: antidepressants, anxiolytics, antipsychotics, lithium, the non-stimulant ADHD and
// wakefulness drugs, and the uncontrolled sleep aids.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const MENTAL_HEALTH_AND_SLEEP = `
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
`;
