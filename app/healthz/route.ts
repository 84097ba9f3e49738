import { toWebResponse } from "@/lib/http/api-exchange";
import { handleHealthz } from "@/lib/ops/health-api";

// Liveness. Under `npm start` lib/http/production-server.ts answers it before Next; this serves `npm run dev`.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return toWebResponse(handleHealthz());
}
