// The HTTP edge of the integration API (app/api/integration/**), for interface engines rather than people:
// an integration key in `Authorization: Bearer rxi_…`, never a session; every failure is problem+json, a
// missing, unknown or revoked key a 401 with WWW-Authenticate.
import { answerWithProblems, problemResponse } from "@/lib/http/dashboard-api";
import { findIntegrationKey } from "@/lib/integration/integration-keys";

export type IntegrationContext = { request: Request; keyId: string; requestId: string };

const CHALLENGE = 'Bearer realm="integration"';

export function integrationRoute(handler: (ctx: IntegrationContext) => Promise<Response>) {
  return (request: Request): Promise<Response> =>
    answerWithProblems(request, "integration api", async (requestId) => {
      const match = /^Bearer ([^\s]+)$/i.exec(request.headers.get("authorization") ?? "");
      const keyId = match ? await findIntegrationKey({ integrationKey: match[1]! }) : null;
      if (!keyId) {
        return problemResponse(
          401,
          "unauthorized",
          "Integration key required",
          match
            ? "The integration key is unknown or revoked."
            : "Send an integration key as `Authorization: Bearer rxi_…` (an admin creates one).",
          {},
          { "www-authenticate": match ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE },
        );
      }
      return handler({ request, keyId, requestId });
    });
}
