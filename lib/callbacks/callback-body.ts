import { TransferResponseSchema } from "@/lib/transfers/wire";

/**
 * The callback body: the stored TransferResponse written in the wire schema's key order (PostgreSQL's jsonb
 * does not keep key order), so every attempt sends the same bytes and reads like our other answers.
 */
export function serializeCallbackBody(payload: unknown): string {
  const parsed = TransferResponseSchema.safeParse(payload);
  return JSON.stringify(parsed.success ? parsed.data : payload);
}
