// The opioid antagonists and nalbuphine (none of them controlled), lofexidine, and the smoking and alcohol
// treatments.
// One line per product, as lib/drugs/non-controlled-drugs.ts describes.
export const ADDICTION_AND_OPIOID_REVERSAL = `
naloxone | Narcan, Zimhi, Kloxxado |
naltrexone | Vivitrol, Revia |
nalbuphine | Nubain |
lofexidine | Lucemyra |
varenicline | Chantix, Tyrvaya |
nicotine | Nicoderm, Nicorette, Nicotrol, Habitrol |
disulfiram | Antabuse |
acamprosate | Campral |
`;
