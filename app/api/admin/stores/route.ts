// GET /api/admin/stores: this pharmacy's stores, the receivingPharmacy NPIs a request may name.
// POST {name, npi, dea?, address fields?}: another store (201). Audited.
import { adminActor } from "@/lib/audit/actor";
import { StoreInputSchema, storeAddressOf } from "@/lib/stores/store-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { addStore } from "@/lib/stores/add-store";
import { listStores } from "@/lib/stores/list-stores";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async () => json({ stores: await listStores() }));

export const POST = dashboardRoute(async (ctx) => {
  const input = await readJsonBody(ctx.request, StoreInputSchema);
  const store = await addStore({
    name: input.name,
    npi: input.npi,
    dea: input.dea || null,
    address: storeAddressOf(input),
    actor: adminActor(ctx),
  });
  return json(store, 201);
});
