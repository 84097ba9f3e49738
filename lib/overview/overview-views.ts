// The overview's figures as the page and GET /api/overview carry them. Client-safe: types and the bands only;
// lib/overview/get-overview.ts fills them.

/** Ages of a pending transfer, in hours, against the sender's 4-hour window: the 3–4 h band lapses within the hour. */
export const AGE_BANDS = ["0-1h", "1-2h", "2-3h", "3-4h", "4h+"] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** How many past same weekdays make the "usual" arrival curve. */
export const USUAL_WEEKS = 4;
export const OVERVIEW_DAYS = 30;

export type HourCount = { hour: number; count: number };

export type OverviewToday = {
  /** The local calendar day in the store's time zone, YYYY-MM-DD. */
  date: string;
  /** The local hour now (0–23). */
  hour: number;
  timeZone: string;
  /** 24 rows, hour 0–23 local: arrivals today, and the mean of the last USUAL_WEEKS same weekdays. */
  arrivals: { hour: number; today: number; usual: number }[];
  /** Pending (RECEIVED) transfers now, by age band. */
  pendingByAge: { band: AgeBand; count: number }[];
  /** Pending transfers that pass the sender's 4-hour window within the next hour (the 3–4 h band). */
  lapsingWithinHour: number;
  /** 24 rows: decisions today by local hour. */
  decisions: { hour: number; approved: number; rejected: number }[];
};

export type OverviewDay = {
  date: string;
  decided: number;
  /** Minutes from arrival to decision, of the transfers decided that day; null without decisions. */
  medianMinutes: number | null;
  p90Minutes: number | null;
  /** Received that day and not answered within the sender's window (no decision, or its callback not delivered, within 4 h). */
  missing: number;
};

export type OverviewOutcome = { decision: "APPROVED" | "REJECTED"; errorType: string | null; count: number };

export type OverviewPartner = {
  partnerId: string;
  name: string;
  /** Callbacks created in the last 30 days, by state; retrying: PENDING after at least one attempt. */
  delivered: number;
  pending: number;
  retrying: number;
  failed: number;
  refused: number;
  /** Created-to-delivered, minutes, of the delivered ones. */
  medianDelayMinutes: number | null;
  p90DelayMinutes: number | null;
  /** The sender's count of failed answers over the last hour (failures / answers); null without answers. */
  failureRate: number | null;
  answersLastHour: number;
  /** The sender's cut-off: at or above this rate over an hour it marks us unhealthy (lib/partners). */
  failureCutoff: number;
};

/** Transfers a store's immediate-confirmation policy CONFIRMED at intake (lib/immediate-confirm). */
export type OverviewImmediate = {
  /** Some store has the policy on now. */
  enabled: boolean;
  /** Confirmed at once today (local day). */
  confirmedToday: number;
  /** Confirmed at once and not yet received and verified by a pharmacist (the countersign), of any day. */
  waitingForCountersign: number;
  /** Of those, past their store's verification limit. */
  overdue: number;
};

export type Overview = {
  generatedAt: string;
  today: OverviewToday;
  last30Days: { days: OverviewDay[]; outcomes: OverviewOutcome[] };
  /** Admins only: absent from a pharmacist's overview. */
  partners?: OverviewPartner[];
  immediateConfirmation: OverviewImmediate;
};
