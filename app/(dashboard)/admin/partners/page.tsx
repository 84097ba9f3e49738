import type { Metadata } from "next";
import { PartnersView } from "@/components/admin/partners-view";
import { listPartnerSummaries } from "@/lib/admin/partner-overview";
import { requirePageUser } from "@/lib/auth/require-user";

export const metadata: Metadata = { title: "Partners" };

export default async function PartnersPage() {
  await requirePageUser("/admin/partners");
  return <PartnersView initial={await listPartnerSummaries()} />;
}
