// The queue's query: its statuses, flags and schedules, the schema of its URL parameters, and their parsing.
import * as z from "zod";
import { SCHEDULES } from "@/lib/drugs/schedule-names";
import { DomainError } from "@/lib/errors";

export const QUEUE_STATUSES = ["RECEIVED", "CONFIRMED", "REJECTED"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export const QUEUE_FLAGS = ["allergies", "allergies-unknown", "controlled", "warnings"] as const;
export type QueueFlag = (typeof QUEUE_FLAGS)[number];
/** The schedule filter: one schedule, any controlled one, or the drugs the tables do not know. */
export const QUEUE_SCHEDULES = ["any", ...SCHEDULES, "unknown"] as const;
export type QueueSchedule = (typeof QUEUE_SCHEDULES)[number];
export const DEFAULT_PAGE_SIZE = 50;

export const isoInstant = z.iso.datetime({ offset: true });

export const QueueQuerySchema = z.object({
  status: z.enum([...QUEUE_STATUSES, "all"]).default("RECEIVED"),
  sender: z.string().trim().max(64).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  flags: z.array(z.enum(QUEUE_FLAGS)).max(QUEUE_FLAGS.length).default([]),
  schedule: z.enum(QUEUE_SCHEDULES, { error: `schedule must be one of ${QUEUE_SCHEDULES.join(", ")}` }).optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["oldest", "newest"]).default("oldest"),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(DEFAULT_PAGE_SIZE),
});
export type QueueQuery = z.infer<typeof QueueQuerySchema>;

/** From a URL's query string: flags as a comma-separated list; empty values are absent. */
export function parseQueueQuery(params: URLSearchParams): QueueQuery {
  const raw: Record<string, unknown> = {};
  for (const key of ["status", "sender", "from", "to", "schedule", "q", "sort", "cursor", "limit"]) {
    const value = params.get(key);
    if (value !== null && value.trim() !== "") raw[key] = value;
  }
  const flags = params.get("flags");
  if (flags) raw.flags = flags.split(",").filter(Boolean);
  const parsed = QueueQuerySchema.safeParse(raw);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; "),
    );
  }
  return parsed.data;
}
