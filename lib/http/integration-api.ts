// The HTTP edge of the integration API (app/api/integration/**), for interface engines rather than people:
// an integration key in `Authorization: Bearer rxi_…`, never a session; every failure is problem+json, a
// missing, unknown or revoked key a 401 with WWW-Authenticate.
import { errorToProblem, problemResponse } from "@/lib/http/dashboard-api";
import { requestIdOf } from "@/lib/http/request-context";
import { findIntegrationKey } from "@/lib/integration/integration-keys";
import { log } from "@/lib/log";

export type IntegrationContext = { request: Request; keyId: string; requestId: string };

const CHALLENGE = 'Bearer realm="integration"';

export function integrationRoute(handler: (ctx: IntegrationContext) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const requestId = requestIdOf(request);
    let status = 500;
    try {
      const match = /^Bearer ([^\s]+)$/i.exec(request.headers.get("authorization") ?? "");
      const keyId = match ? await findIntegrationKey({ integrationKey: match[1]! }) : null;
      if (!keyId) {
        status = 401;
        return problemResponse(
          401,
          "unauthorized",
          "Integration key required",
          match ? "The integration key is unknown or revoked." : "Send an integration key as `Authorization: Bearer rxi_…` (an admin creates one).",
          {},
          { "www-authenticate": match ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE },
        );
      }
      const response = await handler({ request, keyId, requestId });
      status = response.status;
      return response;
    } catch (err) {
      const response = errorToProblem(err, requestId);
      status = response.status;
      return response;
    } finally {
      log(status >= 500 ? "error" : "debug", "integration api", { requestId, route: `${request.method} ${new URL(request.url).pathname}`, status });
    }
  };
}
