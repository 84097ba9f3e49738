// GET /api/transfers/alerts: how many pending transfers are past an alert threshold, and the oldest; polled
// by the dashboard's banner and tab title (components/dashboard/alerts/). No patient data in the answer.
import { getAlertSummary } from "@/lib/alerts/get-alert-summary";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async () => json(await getAlertSummary()));
