// A request path whose percent-encoding does not decode (`/transfers/%ZZ`, a cut-off UTF-8 sequence) is
// the client's mistake: a 400, never the bare 500 Next answers when it cannot decode a route parameter.
// Checked at the edge, before routing: lib/http/production-server.ts for every path under `npm start`,
// proxy.ts for the paths it sees under `next dev` (not /v1 nor /oauth/token, which Next answers there
// with its plain 400 page). The answer has the caller's shape: /v1 a
// TransferResponse (lib/http/transfer-api.ts), the other JSON APIs problem+json, people a page.
import type { ApiAnswer } from "@/lib/http/api-exchange";
import { PROBLEM_HEADERS, problemBody } from "@/lib/http/problem-response";

export type PathAudience = "transfer-api" | "json-api" | "page";

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** The query is not checked: URLSearchParams reads a stray `%` as itself, as browsers do. */
export function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(pathOf(url));
    return false;
  } catch {
    return true;
  }
}

export function audienceOf(url: string): PathAudience {
  const path = pathOf(url);
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under("/v1")) return "transfer-api";
  if (under("/api") || under("/oauth")) return "json-api";
  return "page";
}

export const MALFORMED_PATH_DETAIL =
  "The request path is not valid percent-encoding (RFC 3986 §2.1), so it names nothing here.";

// A page of its own, not a Next page: the path never reaches Next's router. No script, inline styles only.
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Address not valid · Rx Transfer</title>
<style>
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 0 1rem;
    background: #f8fafc; color: #0f172a; font: 14px/1.5 ui-sans-serif, system-ui, sans-serif; }
  main { width: 100%; max-width: 28rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 6px; padding: 1.5rem;
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); }
  h1 { font-size: 1.125rem; margin: 0 0 0.5rem; }
  p { color: #475569; margin: 0 0 1rem; }
  a { color: #1d4ed8; font-weight: 500; }
  a:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
  ul { margin: 0; padding-left: 1.25rem; }
</style>
</head>
<body>
<main>
<h1>This address is not valid</h1>
<p>The link has a broken character code in it (such as a lone <code>%</code>), so it does not lead to any page. Check the link you followed, or start again from one of these:</p>
<nav aria-label="Ways back">
<ul>
<li><a href="/transfers">The transfer queue</a></li>
<li><a href="/login">Sign in</a></li>
</ul>
</nav>
</main>
</body>
</html>
`;

/** The 400 for problem+json readers and for people; /v1 builds its own TransferResponse. */
export function malformedPathAnswer(audience: Exclude<PathAudience, "transfer-api">): ApiAnswer {
  if (audience === "json-api") {
    return {
      status: 400,
      headers: { ...PROBLEM_HEADERS },
      body: JSON.stringify(problemBody(400, "malformed_path", "Malformed path", MALFORMED_PATH_DETAIL)),
    };
  }
  return {
    status: 400,
    // Spelled as in API_RESPONSE_HEADERS, which it replaces when the production server writes it.
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "Content-Security-Policy": PAGE_CSP,
    },
    body: PAGE,
  };
}
