import { buildOpenApiDocument } from "@/lib/openapi/document";

// Built once per process from the same zod schemas that validate requests.
let cached: string | undefined;

export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return new Response(cached, { headers: { "content-type": "application/json; charset=utf-8" } });
}
