import { methodNotAllowed, postTransfer } from "@/lib/http/transfer-api";

export const dynamic = "force-dynamic";

const ROUTE = "/v1/transfer";
const notAllowed = (request: Request) => methodNotAllowed(request, ROUTE, "POST");

export const POST = postTransfer;
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export function OPTIONS(): Response {
  return new Response(null, { status: 204, headers: { allow: "POST, OPTIONS" } });
}
