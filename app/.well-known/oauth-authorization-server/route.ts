// GET /.well-known/oauth-authorization-server: RFC 8414 metadata for the /oauth/token client credentials grant.
import { authorizationServerMetadata, requestOrigin } from "@/lib/auth/oauth-metadata";
import { jsonResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return jsonResponse(authorizationServerMetadata(requestOrigin(request)), 200, {
    "cache-control": "public, max-age=3600",
  });
}
