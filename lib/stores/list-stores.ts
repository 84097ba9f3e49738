// This pharmacy's stores as the admin screen and the CLI list them, with each store's drug rules and alert settings.
import { parseStoreAlertSettings } from "@/lib/alerts/alert-settings";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { parseStoreRules } from "@/lib/stores/store-rules";

export async function listStores() {
  const stores = await db().store.findMany({ orderBy: { createdAt: "asc" } });
  return stores.map((s) => ({
    storeId: s.id,
    name: s.name,
    npi: s.npi,
    dea: s.dea,
    address: s.address,
    configured: s.npi === env().PHARMACY_NPI,
    ...parseStoreRules(s),
    ...parseStoreAlertSettings(s),
  }));
}
