// GET /api/admin/users: dashboard users. POST {email, name?, role, password, licenseNumber?}: a new user (201).
// Audited.
import { adminActor } from "@/lib/audit/actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { createUser } from "@/lib/users/create-user";
import { listUsers } from "@/lib/users/list-users";
import { CreateUserWithLicenseSchema } from "@/lib/users/user-inputs";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async () => json({ users: await listUsers() }));

export const POST = dashboardRoute(async (ctx) => {
  const input = await readJsonBody(ctx.request, CreateUserWithLicenseSchema);
  return json(await createUser({ ...input, actor: adminActor(ctx) }), 201);
});
