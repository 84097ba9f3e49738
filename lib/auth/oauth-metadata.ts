// RFC 8414 authorization server metadata for the client credentials grant at /oauth/token, so that a
// sender's OAuth library can discover the token endpoint (oauth4webapi's discoveryRequest, for one).
// The issuer is this server's public origin (lib/http/public-origin.ts: a trusted proxy's forwarded host,
// else PUBLIC_URL, else the Host the caller used): RFC 8414 §3.3 requires the metadata's issuer to equal
// the URL the client discovered from.
import { publicOrigin } from "@/lib/http/public-origin";

export type AuthorizationServerMetadata = {
  issuer: string;
  token_endpoint: string;
  grant_types_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  response_types_supported: string[];
  service_documentation: string;
};

/** The issuer's origin for this request. */
export function requestOrigin(request: { headers: Headers; url: string }): string {
  return publicOrigin(request);
}

export function authorizationServerMetadata(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    token_endpoint: `${origin}/oauth/token`,
    grant_types_supported: ["client_credentials"],
    // HTTP Basic (RFC 6749 §2.3.1, preferred) or client_id and client_secret as form fields.
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    // RFC 8414 makes this REQUIRED; no authorization endpoint exists here, so no response type is supported.
    response_types_supported: [],
    service_documentation: `${origin}/docs`,
  };
}
