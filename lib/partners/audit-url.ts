// A callback URL as the audit log records it: without its query string, which may carry the partner's
// token (e.g. `?key=…`), and without a fragment. Whether a query was dropped is recorded beside it.
export function callbackUrlForAudit(url: string): { callbackUrl: string; callbackUrlQueryOmitted?: true } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { callbackUrl: "(unparsable)" };
  }
  const hadQuery = parsed.search !== "";
  parsed.search = "";
  parsed.hash = "";
  return hadQuery
    ? { callbackUrl: parsed.toString(), callbackUrlQueryOmitted: true }
    : { callbackUrl: parsed.toString() };
}
