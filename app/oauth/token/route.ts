import { oauthTokenRoute } from "@/lib/http/oauth-token";

export const dynamic = "force-dynamic";

export const { POST, GET, PUT, PATCH, DELETE } = oauthTokenRoute;
