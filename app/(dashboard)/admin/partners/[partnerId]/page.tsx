import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PartnerDetailView } from "@/components/admin/partner/partner-detail-view";
import { getPartnerDetails } from "@/lib/partners/get-partner-details";
import { type PartnerDetails } from "@/lib/partners/partner-views";
import { requirePageUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { callbackUrlHint, partnerPolicy } from "@/lib/partners/npi-policy";

export const metadata: Metadata = { title: "Partner" };

type Props = { params: Promise<{ partnerId: string }> };

export default async function PartnerPage({ params }: Props) {
  const { partnerId } = await params;
  await requirePageUser(`/admin/partners/${encodeURIComponent(partnerId)}`);
  let details: PartnerDetails;
  try {
    details = await getPartnerDetails(partnerId);
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  return (
    <div className="space-y-2">
      <p className="text-xs">
        <Link href="/admin/partners" prefetch={false} className="text-blue-800 underline">
          ← All partners
        </Link>
      </p>
      <PartnerDetailView initial={details} callbackUrlHint={callbackUrlHint(partnerPolicy())} />
    </div>
  );
}
