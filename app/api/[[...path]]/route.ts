// Any other /api path: a problem+json 404 (after the access policy: signed-in users only).
import { ApiProblem, dashboardRoute } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

const notFound = dashboardRoute<{ path?: string[] }>(async ({ request }) => {
  throw new ApiProblem(404, "not_found", "Not found", `There is no dashboard API at ${new URL(request.url).pathname}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
