// The wire format of GET /api/transfers/alerts, which the dashboard's banner and tab title poll.
import * as z from "zod";

export const AlertSummarySchema = z.object({
  /** Pending transfers past one of their store's alert thresholds. */
  count: z.number().int().min(0),
  /** True when there are more than `count` (the count stops at the cap). */
  capped: z.boolean(),
  oldest: z
    .object({
      referenceID: z.string(),
      receivedAt: z.string(),
      ageMinutes: z.number().int(),
      /** The highest threshold it has crossed. */
      thresholdMinutes: z.number().int(),
      arrivedAfterHours: z.boolean(),
    })
    .nullable(),
});

export type AlertSummary = z.infer<typeof AlertSummarySchema>;
