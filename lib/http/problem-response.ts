// RFC 9457 problem details (application/problem+json): the error shape of the dashboard's JSON API.
// Dependency-free, so proxy.ts can answer with it too.

export type Problem = { type: string; title: string; status: number; detail: string; [extension: string]: unknown };

export function problemResponse(
  status: number,
  code: string,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body: Problem = { type: `urn:rx-transfer:problem:${code}`, title, status, detail, ...extensions };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
