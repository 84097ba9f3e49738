// POST /oauth/token: OAuth 2.0 client credentials (RFC 6749 §4.4, errors per §5.2). Client authentication by
// HTTP Basic or by client_id/client_secret form fields, never both; the body form-encoded only (RFC 6749
// §4.4.2), a JSON body is invalid_request. Rate limited in lib/auth/oauth.ts (in PostgreSQL, shared by every
// instance): 429 with Retry-After and RFC 6749's error shape, `temporarily_unavailable` (the code RFC 6749
// gives for "try again later"). The OAuth edge: its route (`oauthTokenRoute`) and its one mapping from a
// failure to RFC 6749's error answer (`oauthErrorAnswer`).
import { issueAccessToken, OAuthError, OAuthRateLimited } from "@/lib/auth/oauth";
import { logUnexpectedFailure } from "@/lib/db/errors";
import { json } from "@/lib/http/api-exchange";
import { readBodyLimited } from "@/lib/http/read-body";
import { clientAddressOf, requestIdOf } from "@/lib/http/request-context";
import { log } from "@/lib/log";
import { findJsonProblems, formatPath, textProblem, type JsonProblem } from "@/lib/text-safety";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** Whatever a token request failed with, as RFC 6749 §5.2 answers it (and logged). */
function oauthErrorAnswer(err: unknown, requestId: string): Response {
  const headers: Record<string, string> = { ...NO_STORE, "x-request-id": requestId };
  if (err instanceof OAuthRateLimited) {
    log("info", "oauth token rate limited", { requestId });
    headers["retry-after"] = String(err.retryAfterSeconds);
    return json({ error: "temporarily_unavailable", error_description: err.description }, 429, headers);
  }
  if (err instanceof OAuthError) {
    log("info", "oauth token refused", { requestId, error: err.code });
    const status = err.code === "invalid_client" ? 401 : 400;
    if (status === 401) headers["www-authenticate"] = 'Basic realm="oauth"';
    return json({ error: err.code, error_description: err.description }, status, headers);
  }
  const { unavailable } = logUnexpectedFailure(err, requestId);
  return json(
    { error: unavailable ? "temporarily_unavailable" : "server_error", error_description: `request id ${requestId}` },
    unavailable ? 503 : 500,
    headers,
  );
}

function parseBasic(header: string | null): { id: string; secret: string } | null | "malformed" {
  if (!header) return null;
  const match = /^basic\s+(\S+)\s*$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return "malformed";
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
    };
  } catch {
    return "malformed";
  }
}

/** Fields are looked up in PostgreSQL: text it cannot hold is a malformed request (lib/text-safety.ts). */
function refuseUnstorable(problems: readonly JsonProblem[]): void {
  if (problems.length === 0) return;
  throw new OAuthError(
    "invalid_request",
    problems.map((p) => `${formatPath(p.path) || "request body"} ${p.message}`).join("; "),
  );
}

async function readParams(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const body = await readBodyLimited(request, 16 * 1024);
  if (!body.ok)
    throw new OAuthError(
      "invalid_request",
      body.reason === "not_utf8" ? "request body is not UTF-8 text" : "request body is too large",
    );
  if (type === "application/x-www-form-urlencoded") {
    const params = new URLSearchParams(body.text);
    refuseUnstorable([...params].flatMap(([name, value]) => findJsonProblems({ [name]: value })));
    return params;
  }
  throw new OAuthError(
    "invalid_request",
    type === "application/json"
      ? "a JSON body is not accepted: send the parameters form-encoded with Content-Type application/x-www-form-urlencoded (RFC 6749 section 4.4.2)"
      : "Content-Type must be application/x-www-form-urlencoded",
  );
}

async function postOAuthToken(request: Request): Promise<Response> {
  const requestId = requestIdOf(request);
  const basic = parseBasic(request.headers.get("authorization"));
  try {
    if (basic === "malformed") throw new OAuthError("invalid_client", "malformed HTTP Basic credentials");
    const basicProblem = basic && (textProblem(basic.id) ?? textProblem(basic.secret));
    if (basicProblem)
      throw new OAuthError("invalid_client", `HTTP Basic credentials: the client id or secret ${basicProblem}`);
    const params = await readParams(request);
    const grantType = params.get("grant_type");
    if (!grantType) throw new OAuthError("invalid_request", "grant_type is required");
    if (grantType !== "client_credentials") {
      throw new OAuthError("unsupported_grant_type", "only grant_type=client_credentials is supported");
    }
    const formId = params.get("client_id");
    const formSecret = params.get("client_secret");
    if (basic && formSecret) {
      throw new OAuthError(
        "invalid_request",
        "use one client authentication method: HTTP Basic or client_secret, not both",
      );
    }
    const id = basic?.id ?? formId;
    const secret = basic?.secret ?? formSecret;
    if (!id || !secret) {
      throw new OAuthError(
        "invalid_client",
        "client authentication is required: HTTP Basic or client_id and client_secret",
      );
    }
    const token = await issueAccessToken({
      clientId: id,
      clientSecret: secret,
      clientAddress: clientAddressOf(request),
    });
    log("info", "oauth token issued", { requestId, clientId: id });
    return json({ access_token: token.accessToken, token_type: "Bearer", expires_in: token.expiresIn }, 200, {
      ...NO_STORE,
      "x-request-id": requestId,
    });
  } catch (err) {
    return oauthErrorAnswer(err, requestId);
  }
}

const useTokenPost = () => json({ error: "invalid_request", error_description: "use POST" }, 405, { allow: "POST" });

/** app/oauth/token's exports: the token endpoint takes POST only. */
export const oauthTokenRoute = {
  POST: postOAuthToken,
  GET: useTokenPost,
  PUT: useTokenPost,
  PATCH: useTokenPost,
  DELETE: useTokenPost,
};
