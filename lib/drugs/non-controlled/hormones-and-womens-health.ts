// Hormones and women's health: estrogens (esterified estrogens is EEMT's partner), progestins, contraceptives,
// fertility and breast-cancer drugs, tranexamic acid and misoprostol.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const HORMONES_AND_WOMENS_HEALTH = `
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
`;
