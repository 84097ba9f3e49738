// The roles as a select's options, in one place for the new-user form and the change-role dialog.
import { ROLE_LABELS } from "@/components/admin/users/user-row";
import { USER_ROLES } from "@/lib/users/roles";

export function RoleOptions() {
  return USER_ROLES.map((r) => (
    <option key={r} value={r}>
      {ROLE_LABELS[r]}
    </option>
  ));
}
