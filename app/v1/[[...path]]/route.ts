import { notFound } from "@/lib/http/transfer-api";

export const dynamic = "force-dynamic";

// Any other /v1 path answers with a TransferResponse envelope, not Next's HTML 404 page.
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
