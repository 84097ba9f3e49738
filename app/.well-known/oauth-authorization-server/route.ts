// GET /.well-known/oauth-authorization-server: RFC 8414 metadata for the /oauth/token client credentials grant.
import { authorizationServerMetadata, requestOrigin } from "@/lib/auth/oauth-metadata";
import { json } from "@/lib/http/api-exchange";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return json(authorizationServerMetadata(requestOrigin(request)), 200, {
    "cache-control": "public, max-age=3600",
  });
}
