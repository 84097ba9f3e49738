import { v1Route } from "@/lib/http/transfer-api";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route("/v1/transfer/{referenceID}");
