// A store's immediate-confirmation policy as forms, the admin API, the CLI and intake read it: the change an
// admin may make, the defaults, and the words the admin page states before anyone turns it on. Client-safe.
import { z } from "zod";

export const DEFAULT_HOURLY_CAP = 60;
export const DEFAULT_VERIFY_WITHIN_HOURS = 4;

export type ImmediateConfirmPolicy = {
  storeId: string;
  /** 0 until the first change. */
  version: number;
  enabled: boolean;
  ownerUserId: string | null;
  state: string | null;
  boardRule: string | null;
  allowListedAllergies: boolean;
  hourlyCap: number;
  verifyWithinHours: number;
};

export function defaultPolicy(storeId: string): ImmediateConfirmPolicy {
  return {
    storeId,
    version: 0,
    enabled: false,
    ownerUserId: null,
    state: null,
    boardRule: null,
    allowListedAllergies: false,
    hourlyCap: DEFAULT_HOURLY_CAP,
    verifyWithinHours: DEFAULT_VERIFY_WITHIN_HOURS,
  };
}

/** Any of the settings; what the admin API and the CLI take (400 naming the field). */
export const PolicyChangeSchema = z
  .object({
    enabled: z.boolean(),
    ownerUserId: z.string().trim().min(1, "name the pharmacist-in-charge who owns the policy"),
    state: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "the store's state as two letters, e.g. TX")
      .transform((s) => s.toUpperCase()),
    boardRule: z.string().trim().min(1, "the board rule the store relies on is required").max(2000),
    allowListedAllergies: z.boolean(),
    hourlyCap: z.number().int().min(1).max(10_000),
    verifyWithinHours: z.number().int().min(1).max(72),
  })
  .partial();
export type PolicyChange = z.input<typeof PolicyChangeSchema>;

/** What the admin page says, in plain words, next to the switch (the domain note's consequences). */
export const POLICY_STATEMENT = [
  "Federal law excludes controlled substances: a Schedule III-V transfer must be communicated directly between two licensed pharmacists (21 CFR 1306.25), and Schedule II cannot come through this service at all. They never qualify.",
  "Some states require a pharmacist (or intern) to receive each transfer (for example Georgia, Oklahoma, Ohio, New York, Maryland). Others allow electronic transfers with conditions (for example Texas, Florida, Illinois, Washington, Iowa).",
  "Check your board's rule before turning this on, and name it here. A pharmacist still receives and verifies every transfer confirmed automatically, and it is not released to dispensing until then.",
] as const;

/** The legal record of an automatic acceptance, in the words the record shows. */
export function immediateRecordWords(c: {
  policyVersion: number;
  ownerName: string;
  ownerLicense: string | null;
  confirmedAt: Date;
  verifiedByName: string | null;
  verifiedLicense: string | null;
  verifiedAt: Date | null;
}): string {
  const owner = c.ownerLicense ? `${c.ownerName}, licence ${c.ownerLicense}` : c.ownerName;
  const accepted = `accepted automatically under store policy v${c.policyVersion} (owner: ${owner}) at ${c.confirmedAt.toISOString()}`;
  if (!c.verifiedAt || !c.verifiedByName) return `${accepted}; not yet received and verified by a pharmacist`;
  const by = c.verifiedLicense ? `${c.verifiedByName}, licence ${c.verifiedLicense}` : c.verifiedByName;
  return `${accepted}; received and verified by ${by} at ${c.verifiedAt.toISOString()}`;
}

/** The policy's own fields from its row (which carries more: timestamps, who changed it). */
export function policyOf(row: ImmediateConfirmPolicy): ImmediateConfirmPolicy {
  const {
    storeId,
    version,
    enabled,
    ownerUserId,
    state,
    boardRule,
    allowListedAllergies,
    hourlyCap,
    verifyWithinHours,
  } = row;
  return {
    storeId,
    version,
    enabled,
    ownerUserId,
    state,
    boardRule,
    allowListedAllergies,
    hourlyCap,
    verifyWithinHours,
  };
}
