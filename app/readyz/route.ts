import { toWebResponse } from "@/lib/http/api-exchange";
import { handleReadyz } from "@/lib/ops/health-api";

// Readiness. Under `npm start` lib/http/production-server.ts answers it before Next; this serves `npm run dev`.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return toWebResponse(await handleReadyz());
}
