import type { Metadata } from "next";
import { IntegrationKeysView } from "@/components/admin/integration-keys-view";
import { requirePageUser } from "@/lib/auth/require-user";
import { listIntegrationKeys } from "@/lib/integration/integration-keys";

export const metadata: Metadata = { title: "Integration keys" };

export default async function IntegrationKeysPage() {
  await requirePageUser("/admin/integration-keys");
  return <IntegrationKeysView initial={await listIntegrationKeys()} />;
}
