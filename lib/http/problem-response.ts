// RFC 9457 problem details (application/problem+json): the error shape of the dashboard's JSON API.
// Dependency-free, so proxy.ts can answer with it too.

export type Problem = { type: string; title: string; status: number; detail: string; [extension: string]: unknown };

export const PROBLEM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/problem+json; charset=utf-8",
  "cache-control": "no-store",
};

export function problemBody(
  status: number,
  code: string,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  return { type: `urn:rx-transfer:problem:${code}`, title, status, detail, ...extensions };
}

export function problemResponse(
  status: number,
  code: string,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problemBody(status, code, title, detail, extensions)), {
    status,
    headers: { ...PROBLEM_HEADERS, ...headers },
  });
}
