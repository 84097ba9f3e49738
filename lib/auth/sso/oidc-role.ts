// OIDC_ROLE_CLAIM's value as one of our roles. The claim may be a string or a list of strings (groups);
// values are matched case-insensitively: `admin` gives admin, else `pharmacist` gives pharmacist. A claim
// that is absent or holds neither value is refused by the caller: it never defaults to a role.
import type { Role } from "@/lib/auth/access-policy";

export const ROLE_CLAIM_VALUES: Record<string, Role> = { admin: "admin", pharmacist: "pharmacist" };

export function roleFromClaim(value: unknown): Role | null {
  const values = (Array.isArray(value) ? value : [value])
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.trim().toLowerCase());
  const roles = values.map((v) => ROLE_CLAIM_VALUES[v]).filter((r): r is Role => r !== undefined);
  if (roles.includes("admin")) return "admin";
  return roles[0] ?? null;
}
