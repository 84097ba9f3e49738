// The admin area (admins only: lib/auth/access-policy.ts; each page checks again with requirePageUser).
import { AdminNav } from "@/components/admin/admin-nav";

export default function AdminLayout({ children }: { children: React.ReactNode }) {
  return (
    <div>
      <AdminNav />
      {children}
    </div>
  );
}
