import type { Metadata } from "next";
import { StoresView } from "@/components/admin/stores/stores-view";
import { requirePageUser } from "@/lib/auth/require-user";
import { listStores } from "@/lib/stores/list-stores";

export const metadata: Metadata = { title: "Stores" };

export default async function StoresPage() {
  await requirePageUser("/admin/stores");
  return <StoresView initial={await listStores()} />;
}
