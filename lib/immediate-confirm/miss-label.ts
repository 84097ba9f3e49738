// The short words the queue row shows for why intake did not confirm a transfer at once (the full reason,
// stored in transfers.immediate_miss by confirm-at-intake.ts, is the row's accessible name and its tooltip).
// Client-safe: the queue row imports it. The patterns follow the reasons' openings in qualify-transfer.ts and
// confirm-at-intake.ts; a reason none of them knows is shown in full.
const SHORT: readonly [RegExp, string][] = [
  [/^controlled substance/, "controlled substance"],
  [/^the drug is not recognised/, "unknown drug"],
  [/^the patient has listed allergies/, "allergies listed"],
  [/^no allergy information/, "allergies unknown"],
  [/^allergy signal/, "allergy signal"],
  [/^refused for approval/, "approval refused"],
  [/^duplicate therapy/, "duplicate therapy"],
  [/earlier transfer of the same prescription was rejected/, "earlier rejection"],
  [/^the store's cap of/, "hourly cap reached"],
  [/^the policy's owner/, "policy owner inactive"],
  [/^the store's policy changed/, "policy changed meanwhile"],
  [/: (warning|failed): /, "check flagged"],
];

/** "Not automatic: controlled substance" from the stored reason. */
export function immediateMissLabel(miss: string): string {
  const short = SHORT.find(([pattern]) => pattern.test(miss))?.[1] ?? miss;
  return `Not automatic: ${short}`;
}

/** The sentence a screen reader hears and the tooltip shows. */
export function immediateMissSentence(miss: string): string {
  return `Not confirmed automatically: ${miss}`;
}
