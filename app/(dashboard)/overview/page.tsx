// The overview: the day, the last 30 days and (admins) the partners' callbacks, in charts with tables.
import type { Metadata } from "next";
import { OverviewView } from "@/components/overview/overview-view";
import { requirePageUser } from "@/lib/auth/require-user";
import { getOverview } from "@/lib/overview/get-overview";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const user = await requirePageUser("/overview");
  const initial = await getOverview({ withPartners: user.role === "admin" });
  return <OverviewView initial={initial} />;
}
