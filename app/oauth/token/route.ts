import { jsonResponse } from "@/lib/http/json-response";
import { postOAuthToken } from "@/lib/http/oauth-token";

export const dynamic = "force-dynamic";

export const POST = postOAuthToken;

const notAllowed = () =>
  jsonResponse({ error: "invalid_request", error_description: "use POST" }, 405, { allow: "POST" });
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
