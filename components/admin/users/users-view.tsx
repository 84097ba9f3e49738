"use client";
// Dashboard users: create, change role, set the licence number (printed on the transfer records a pharmacist
// approves), disable or enable, reset password. Every change that affects what a user may do ends their open
// sessions (the domain operations bump the session version). The last active admin can be neither demoted
// nor disabled: the server refuses, and the dialog says why. "End sessions" signs a user out everywhere (a
// lost laptop, a shared computer) without changing anything else.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { UserAccessDialogs, useUserAccessActions } from "@/components/admin/users/user-access-dialogs";
import {
  LicenseDialog,
  PasswordDialog,
  RoleDialog,
  useLicenseChange,
  usePasswordReset,
  useRoleChange,
} from "@/components/admin/users/user-edit-dialogs";
import { CreateUserForm } from "@/components/admin/users/create-user-form";
import type { UserRow } from "@/components/admin/users/user-row";
import { UsersTable } from "@/components/admin/users/users-table";

export type { UserRow } from "@/components/admin/users/user-row";

export function UsersView({ initial, currentUserId }: { initial: UserRow[]; currentUserId: string }) {
  const query = useQuery({
    queryKey: ["admin", "users"],
    queryFn: () => apiFetch<{ users: UserRow[] }>("/api/admin/users", { background: true }).then((r) => r.users),
    initialData: initial,
  });
  const [status, setStatus] = useState("");
  const [now] = useState(() => Date.now());
  const role = useRoleChange(setStatus);
  const license = useLicenseChange(setStatus);
  const password = usePasswordReset(setStatus);
  const access = useUserAccessActions(currentUserId, setStatus);

  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Users</h1>
      <CreateUserForm onCreated={setStatus} />
      <StatusMessage className="rounded border border-emerald-200 bg-emerald-50 px-2 py-1">{status}</StatusMessage>
      <ErrorMessage>{access.disable.errorOutside}</ErrorMessage>
      {query.error && <ErrorMessage>The users could not be refreshed: {messageOf(query.error)}</ErrorMessage>}
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <UsersTable
          users={query.data}
          currentUserId={currentUserId}
          now={now}
          act={{
            changeRole: role.action.ask,
            setLicense: license.action.ask,
            resetPassword: password.action.ask,
            endSessions: access.endSessions.ask,
            resetTwoFactor: access.resetTwoFactor.ask,
            enable: (user) => access.disable.runNow({ user, disabled: false }),
            disable: (user) => access.disable.ask({ user, disabled: true }),
          }}
        />
      </div>
      <RoleDialog change={role} currentUserId={currentUserId} />
      <LicenseDialog change={license} />
      <PasswordDialog change={password} />
      <UserAccessDialogs actions={access} currentUserId={currentUserId} />
    </div>
  );
}
