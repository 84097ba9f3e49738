import { jsonAnswer, toWebResponse } from "@/lib/http/api-exchange";

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return toWebResponse(jsonAnswer(body, status, headers));
}
