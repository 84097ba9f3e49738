import type { Metadata } from "next";
import { UsersView } from "@/components/admin/users/users-view";
import { requirePageUser } from "@/lib/auth/require-user";
import { listUsers } from "@/lib/users/list-users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const user = await requirePageUser("/admin/users");
  return <UsersView initial={await listUsers()} currentUserId={user.id} />;
}
