import { getTransferStatus, methodNotAllowed } from "@/lib/http/transfer-api";

export const dynamic = "force-dynamic";

const notAllowed = (request: Request) => methodNotAllowed(request, "/v1/transfer/{referenceID}", "GET");

export async function GET(request: Request, ctx: { params: Promise<{ referenceID: string }> }): Promise<Response> {
  const { referenceID } = await ctx.params;
  return getTransferStatus(request, referenceID);
}

export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
