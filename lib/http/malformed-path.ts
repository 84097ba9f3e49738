// A path whose percent-encoding does not decode (`/v1/transfer/%ZZ`, `/api/transfers/%ED%A0%80`): Next
// fails to decode the route parameter and answers a bare "Internal Server Error". The production server
// answers it first, as the client's mistake, in the shape of the route family the path belongs to.
import { jsonAnswer, type ApiAnswer } from "@/lib/http/api-exchange";
import type { Problem } from "@/lib/http/problem-response";
import { errorResponse } from "@/lib/transfers/responses";

const DESCRIPTION = "the request path is not valid percent-encoded UTF-8";

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The 400 for a path that does not decode, or null when it does. */
export function malformedPathAnswer(url: string): ApiAnswer | null {
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  if (decodes(pathname)) return null;
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  if (under("/v1")) return jsonAnswer(errorResponse("", "SPEC_MISMATCH", DESCRIPTION), 400);
  if (under("/oauth")) return jsonAnswer({ error: "invalid_request", error_description: DESCRIPTION }, 400);
  if (under("/api")) {
    const problem: Problem = { type: "urn:rx-transfer:problem:invalid_path", title: "Invalid request", status: 400, detail: "The request path is not valid percent-encoded UTF-8." };
    return jsonAnswer(problem, 400, { "content-type": "application/problem+json; charset=utf-8" });
  }
  return { status: 400, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }, body: "Bad request: the path is not valid percent-encoded UTF-8.\n" };
}
