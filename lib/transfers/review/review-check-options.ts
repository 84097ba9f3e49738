// The review checks' settings from the environment (server only: review-checks.ts itself is client-safe).
import { env } from "@/lib/env";
import type { ReviewCheckOptions } from "@/lib/transfers/review/review-checks";

export function reviewCheckOptions(): Required<ReviewCheckOptions> {
  return { earlyRefillAllowance: env().EARLY_REFILL_ALLOWANCE_PERCENT / 100 };
}
