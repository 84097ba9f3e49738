// The demo sending pharmacy's callback endpoint, for `npm run dev` only (404 in production): accepts a
// callback whose Standard Webhooks signature checks out (204), refuses any other (401).
import { receiveDemoCallback } from "@/lib/callbacks/demo-receiver";
import { env } from "@/lib/env";
import { json } from "@/lib/http/api-exchange";
import { readBodyLimited } from "@/lib/http/read-body";

export const dynamic = "force-dynamic";

const notFound = () =>
  json({ type: "about:blank", title: "Not Found", status: 404 }, 404, {
    "content-type": "application/problem+json",
  });

export async function POST(request: Request): Promise<Response> {
  if (env().NODE_ENV === "production") return notFound();
  const body = await readBodyLimited(request);
  if (!body.ok)
    return json({ type: "about:blank", title: "Payload Too Large", status: 413 }, 413, {
      "content-type": "application/problem+json",
    });
  const receipt = await receiveDemoCallback({ headers: request.headers, body: body.text });
  if (!receipt.accepted) {
    return json({ type: "about:blank", title: "Unauthorized", status: 401, detail: receipt.reason }, 401, {
      "content-type": "application/problem+json",
    });
  }
  return new Response(null, { status: 204 });
}

export async function GET(): Promise<Response> {
  if (env().NODE_ENV === "production") return notFound();
  return json({ detail: "the demo partner's callback endpoint: POST signed callbacks here" }, 200);
}
