// Pain relievers: acetaminophen, the NSAIDs and salicylates, and caffeine (a partner in combinations).
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const ANALGESICS = `
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
`;
