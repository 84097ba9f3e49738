// A dashboard user as the users screen shows it, and the queries it keeps fresh.
import { useQueryClient } from "@tanstack/react-query";
import type { UserRole } from "@/lib/users/roles";

export type UserRow = {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  licenseNumber: string | null;
  disabled: boolean;
  lockedUntil: string | null;
  lastLoginAt: string | null;
  openSessions: number;
  /** Two-factor sign-in is on. */
  twoFactor: boolean;
  createdAt: string;
};

export const ROLE_LABELS: Record<UserRow["role"], string> = { pharmacist: "Pharmacist", admin: "Admin" };

export function useUsersRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["admin", "users"] });
}
