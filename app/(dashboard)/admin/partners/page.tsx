import type { Metadata } from "next";
import { PartnersView } from "@/components/admin/partners-view";
import { listPartnerSummaries } from "@/lib/partners/list-partner-summaries";
import { requirePageUser } from "@/lib/auth/require-user";
import { callbackUrlHint, npisHint, partnerPolicy } from "@/lib/partners/npi-policy";

export const metadata: Metadata = { title: "Partners" };

export default async function PartnersPage() {
  await requirePageUser("/admin/partners");
  const policy = partnerPolicy();
  return (
    <PartnersView
      initial={await listPartnerSummaries()}
      callbackUrlHint={callbackUrlHint(policy)}
      npisHint={npisHint(policy)}
    />
  );
}
