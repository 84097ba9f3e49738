// GET /api/overview: the overview's figures as JSON (docs/pharmacists/overview.md), for the page's refresh and
// the pharmacy's own reporting. Partner figures only for admins.
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { getOverview } from "@/lib/overview/get-overview";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async ({ user }) => json(await getOverview({ withPartners: user.role === "admin" })));
