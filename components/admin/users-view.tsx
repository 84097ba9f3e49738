"use client";
// Dashboard users: create, change role, set the licence number (printed on the transfer records a pharmacist
// approves), disable or enable, reset password. Every change that affects what a user may do ends their open sessions (the domain operations bump the session version). The last active
// admin can be neither demoted nor disabled: the server refuses, and the dialog says why. "End sessions"
// signs a user out everywhere (a lost laptop, a shared computer) without changing anything else.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import * as z from "zod";
import { apiFetch, messageOf, submitShowingErrors } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Field } from "@/components/ui/field";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { SortHeader, useSort } from "@/components/admin/sortable";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { USER_ROLES, type UserRole } from "@/lib/users/roles";
import { MIN_PASSWORD_LENGTH, CreateUserWithLicenseSchema, LICENSE_RULE, LicenseInputSchema, ResetPasswordInputSchema } from "@/lib/users/user-inputs";

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

const ROLE_LABELS: Record<UserRow["role"], string> = { pharmacist: "Pharmacist", admin: "Admin" };

const SORT_COLUMNS = {
  name: (u: UserRow) => u.name.toLowerCase(),
  email: (u: UserRow) => u.email,
  role: (u: UserRow) => u.role,
  license: (u: UserRow) => u.licenseNumber,
  status: (u: UserRow) => (u.disabled ? 1 : 0),
  lastLogin: (u: UserRow) => u.lastLoginAt,
};

const RoleFormSchema = z.object({ role: z.enum(USER_ROLES, { error: "Choose pharmacist or admin" }) });

function useUsersRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["admin", "users"] });
}

function CreateUserForm({ onCreated }: { onCreated: (message: string) => void }) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(CreateUserWithLicenseSchema, {
    defaultValues: { email: "", name: "", role: "pharmacist", password: "", licenseNumber: "" },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["email", "name", "role", "password", "licenseNumber"], async (input) => {
    await apiFetch("/api/admin/users", { method: "POST", body: input });
    form.reset();
    onCreated(
      `User ${input.email} created as ${input.role}. Give them the password in person; they can sign in now.`,
    );
    await refresh();
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="new-user-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
    >
      <h2 id="new-user-heading" className="font-semibold">
        Add a user
      </h2>
      <div className="grid gap-2 md:grid-cols-5">
        <Field label="Email" error={errors.email?.message}>
          {(f) => <input {...f} type="email" autoComplete="off" {...form.register("email")} />}
        </Field>
        <Field
          label="Name"
          error={errors.name?.message}
          hint="As it appears on transfer records, e.g. Sasha Ng, PharmD."
        >
          {(f) => <input {...f} autoComplete="off" {...form.register("name")} />}
        </Field>
        <Field label="Role" error={errors.role?.message}>
          {(f) => (
            <select {...f} {...form.register("role")}>
              {USER_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Initial password"
          error={errors.password?.message}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        >
          {(f) => <input {...f} type="password" autoComplete="new-password" {...form.register("password")} />}
        </Field>
        <Field
          label="Licence number"
          error={errors.licenseNumber?.message}
          hint="Optional. Printed on the transfer records this pharmacist approves."
        >
          {(f) => <input {...f} autoComplete="off" {...form.register("licenseNumber")} />}
        </Field>
      </div>
      <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
      <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Creating…" : "Create user"}
      </Button>
    </form>
  );
}

function RoleDialog({
  user,
  isSelf,
  onDone,
  onCancel,
}: {
  user: UserRow | null;
  isSelf: boolean;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(RoleFormSchema, {
    values: { role: user?.role ?? "pharmacist" },
  });
  const submit = submitShowingErrors(form, ["role"], async ({ role }) => {
    if (!user) return;
    await apiFetch(`/api/admin/users/${user.userId}`, { method: "PATCH", body: { role } });
    onDone(
      role === user.role
        ? `${user.email} is already ${ROLE_LABELS[role].toLowerCase()}.`
        : `${user.email} is now ${ROLE_LABELS[role].toLowerCase()}; their open sessions were ended.`,
    );
    await refresh();
  });
  return (
    <ConfirmDialog
      open={user !== null}
      title={`Change the role of ${user?.email ?? ""}?`}
      description={
        isSelf
          ? "This is your own account: you will be signed out at once and sign in again with the new role."
          : "Their open sessions end at once; they sign in again with the new role."
      }
      confirmLabel="Change role"
      pendingLabel="Changing…"
      variant="primary"
      pending={form.formState.isSubmitting}
      error={form.formState.errors.root?.server?.message}
      onCancel={onCancel}
      onConfirm={() => void submit()}
    >
      <Field label="New role" error={form.formState.errors.role?.message}>
        {(f) => (
          <select {...f} data-autofocus {...form.register("role")}>
            {USER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
    </ConfirmDialog>
  );
}

function LicenseDialog({
  user,
  onDone,
  onCancel,
}: {
  user: UserRow | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(LicenseInputSchema, {
    values: { licenseNumber: user?.licenseNumber ?? "" },
  });
  const submit = submitShowingErrors(form, ["licenseNumber"], async ({ licenseNumber }) => {
    if (!user) return;
    await apiFetch(`/api/admin/users/${user.userId}/license`, { method: "PUT", body: { licenseNumber } });
    onDone(
      licenseNumber
        ? `Licence number of ${user.email} set to ${licenseNumber}.`
        : `Licence number of ${user.email} cleared.`,
    );
    await refresh();
  });
  return (
    <ConfirmDialog
      open={user !== null}
      title={`Licence number of ${user?.email ?? ""}`}
      description="Printed on the transfer records they approve from now on; records already approved keep the number they were made with. Leave it empty to clear it."
      confirmLabel="Save licence number"
      pendingLabel="Saving…"
      variant="primary"
      pending={form.formState.isSubmitting}
      error={form.formState.errors.root?.server?.message}
      onCancel={onCancel}
      onConfirm={() => void submit()}
    >
      <Field
        label="Licence number"
        error={form.formState.errors.licenseNumber?.message}
        hint={`Optional: ${LICENSE_RULE}.`}
      >
        {(f) => <input {...f} autoComplete="off" data-autofocus {...form.register("licenseNumber")} />}
      </Field>
    </ConfirmDialog>
  );
}

function PasswordDialog({
  user,
  onDone,
  onCancel,
}: {
  user: UserRow | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const form = useSchemaForm(ResetPasswordInputSchema, {
    defaultValues: { password: "" },
  });
  const submit = submitShowingErrors(form, ["password"], async ({ password }) => {
    if (!user) return;
    await apiFetch(`/api/admin/users/${user.userId}/password`, { method: "PUT", body: { password } });
    form.reset();
    onDone(`Password of ${user.email} reset; their open sessions were ended.`);
  });
  return (
    <ConfirmDialog
      open={user !== null}
      title={`Reset the password of ${user?.email ?? ""}?`}
      description="Their open sessions end at once and a sign-in lockout is lifted. Give them the new password in person."
      confirmLabel="Set new password"
      pendingLabel="Saving…"
      pending={form.formState.isSubmitting}
      error={form.formState.errors.root?.server?.message}
      onCancel={() => {
        form.reset();
        onCancel();
      }}
      onConfirm={() => void submit()}
    >
      <Field
        label="New password"
        error={form.formState.errors.password?.message}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
      >
        {(f) => (
          <input {...f} type="password" autoComplete="new-password" data-autofocus {...form.register("password")} />
        )}
      </Field>
    </ConfirmDialog>
  );
}

export function UsersView({ initial, currentUserId }: { initial: UserRow[]; currentUserId: string }) {
  const refresh = useUsersRefresh();
  const query = useQuery({
    queryKey: ["admin", "users"],
    queryFn: () => apiFetch<{ users: UserRow[] }>("/api/admin/users", { background: true }).then((r) => r.users),
    initialData: initial,
  });
  const users = query.data;
  const { sorted, sort, toggle } = useSort(users, SORT_COLUMNS, { key: "name", dir: "ascending" });
  const [status, setStatus] = useState("");
  const [now] = useState(() => Date.now());
  const [roleFor, setRoleFor] = useState<UserRow | null>(null);
  const [passwordFor, setPasswordFor] = useState<UserRow | null>(null);
  const [licenseFor, setLicenseFor] = useState<UserRow | null>(null);
  const [disabling, setDisabling] = useState<UserRow | null>(null);
  const [endingSessions, setEndingSessions] = useState<UserRow | null>(null);
  const [resettingTwoFactor, setResettingTwoFactor] = useState<UserRow | null>(null);
  const activeAdmins = users.filter((u) => u.role === "admin" && !u.disabled).length;

  const setDisabled = useMutation({
    mutationFn: ({ user, disabled }: { user: UserRow; disabled: boolean }) =>
      apiFetch(`/api/admin/users/${user.userId}`, { method: "PATCH", body: { disabled } }),
    onSuccess: async (_data, { user, disabled }) => {
      setDisabling(null);
      setStatus(
        disabled ? `${user.email} is disabled and signed out.` : `${user.email} is enabled and can sign in again.`,
      );
      await refresh();
    },
  });

  const endSessions = useMutation({
    mutationFn: (user: UserRow) =>
      apiFetch<{ sessionsEnded: number }>(`/api/admin/users/${user.userId}/sessions`, { method: "DELETE" }),
    onSuccess: async (result, user) => {
      setEndingSessions(null);
      if (user.userId === currentUserId) {
        window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString());
        return;
      }
      setStatus(
        `${user.email}: ${result.sessionsEnded} open session${result.sessionsEnded === 1 ? "" : "s"} ended. They can sign in again.`,
      );
      await refresh();
    },
  });

  const resetTwoFactor = useMutation({
    mutationFn: (user: UserRow) => apiFetch<{ sessionsEnded: number }>(`/api/admin/users/${user.userId}/two-factor`, { method: "DELETE" }),
    onSuccess: async (_result, user) => {
      setResettingTwoFactor(null);
      if (user.userId === currentUserId) {
        window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString());
        return;
      }
      setStatus(`${user.email}: two-factor sign-in reset and every session ended. They set it up again at their next sign-in.`);
      await refresh();
    },
  });

  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Users</h1>
      <CreateUserForm onCreated={setStatus} />
      <StatusMessage className="rounded border border-emerald-200 bg-emerald-50 px-2 py-1">{status}</StatusMessage>
      {!disabling && setDisabled.error && <ErrorMessage>{messageOf(setDisabled.error)}</ErrorMessage>}
      {query.error && <ErrorMessage>The users could not be refreshed: {messageOf(query.error)}</ErrorMessage>}
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className={TABLE_CLASS}>
          <caption className="sr-only">Dashboard users</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <SortHeader label="Name" column="name" sort={sort} onSort={toggle} />
              <SortHeader label="Email" column="email" sort={sort} onSort={toggle} />
              <SortHeader label="Role" column="role" sort={sort} onSort={toggle} />
              <SortHeader label="Licence number" column="license" sort={sort} onSort={toggle} />
              <SortHeader label="Status" column="status" sort={sort} onSort={toggle} />
              <SortHeader label="Last sign-in" column="lastLogin" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                Two-factor
              </th>
              <th scope="col" className={TH_CLASS}>
                Open sessions
              </th>
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((u) => {
              const isSelf = u.userId === currentUserId;
              const isLastAdmin = u.role === "admin" && !u.disabled && activeAdmins === 1;
              const locked = u.lockedUntil && new Date(u.lockedUntil).getTime() > now;
              return (
                <tr key={u.userId} className={TR_CLASS}>
                  <td className={TD_CLASS}>
                    {u.name}
                    {isSelf && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                  </td>
                  <td className={TD_CLASS}>{u.email}</td>
                  <td className={TD_CLASS}>
                    {u.role === "admin" ? <Badge tone="violet">Admin</Badge> : <Badge tone="blue">Pharmacist</Badge>}
                    {isLastAdmin && <div className="text-xs text-slate-500">the only active admin</div>}
                  </td>
                  <td className={`${TD_CLASS} font-mono`}>
                    {u.licenseNumber ?? <span className="font-sans text-slate-500">none</span>}
                  </td>
                  <td className={TD_CLASS}>
                    {u.disabled ? (
                      <Badge tone="red">Disabled</Badge>
                    ) : locked ? (
                      <Badge tone="amber">Locked out</Badge>
                    ) : (
                      <Badge tone="green">Active</Badge>
                    )}
                  </td>
                  <td className={TD_CLASS}>
                    {u.lastLoginAt ? <LocalTime iso={u.lastLoginAt} /> : <span className="text-slate-500">never</span>}
                  </td>
                  <td className={TD_CLASS}>{u.twoFactor ? <Badge tone="green">On</Badge> : <span className="text-slate-500">off</span>}</td>
                  <td className={`${TD_CLASS} tabular-nums`}>{u.openSessions}</td>
                  <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
                    <span className="inline-flex gap-1">
                      <Button onClick={() => setRoleFor(u)}>
                        Change role<span className="sr-only"> of {u.email}</span>
                      </Button>
                      <Button onClick={() => setLicenseFor(u)}>
                        Licence<span className="sr-only"> number of {u.email}</span>
                      </Button>
                      <Button onClick={() => setPasswordFor(u)}>
                        Reset password<span className="sr-only"> of {u.email}</span>
                      </Button>
                      <Button
                        onClick={() => {
                          endSessions.reset();
                          setEndingSessions(u);
                        }}
                      >
                        End sessions<span className="sr-only"> of {u.email}</span>
                      </Button>
                      {u.twoFactor && (
                        <Button
                          onClick={() => {
                            resetTwoFactor.reset();
                            setResettingTwoFactor(u);
                          }}
                        >
                          Reset two-factor<span className="sr-only"> of {u.email}</span>
                        </Button>
                      )}
                      {u.disabled ? (
                        <Button
                          onClick={() => {
                            setDisabled.reset();
                            setDisabled.mutate({ user: u, disabled: false });
                          }}
                        >
                          Enable<span className="sr-only"> {u.email}</span>
                        </Button>
                      ) : (
                        <Button
                          variant="danger"
                          onClick={() => {
                            setDisabled.reset();
                            setDisabling(u);
                          }}
                        >
                          Disable<span className="sr-only"> {u.email}</span>
                        </Button>
                      )}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <RoleDialog
        user={roleFor}
        isSelf={roleFor?.userId === currentUserId}
        onCancel={() => setRoleFor(null)}
        onDone={(message) => {
          setRoleFor(null);
          setStatus(message);
        }}
      />
      <LicenseDialog
        user={licenseFor}
        onCancel={() => setLicenseFor(null)}
        onDone={(message) => {
          setLicenseFor(null);
          setStatus(message);
        }}
      />
      <PasswordDialog
        user={passwordFor}
        onCancel={() => setPasswordFor(null)}
        onDone={(message) => {
          setPasswordFor(null);
          setStatus(message);
        }}
      />
      <ConfirmDialog
        open={endingSessions !== null}
        title={`End every session of ${endingSessions?.email ?? ""}?`}
        description={
          endingSessions?.userId === currentUserId
            ? "This is your own account: you will be signed out here too, and on every other computer."
            : "They are signed out at once on every computer and browser. Nothing else changes: they can sign in again (disable them to keep them out)."
        }
        confirmLabel="End sessions"
        pendingLabel="Ending…"
        pending={endSessions.isPending}
        error={endSessions.error ? messageOf(endSessions.error) : null}
        onCancel={() => setEndingSessions(null)}
        onConfirm={() => endingSessions && endSessions.mutate(endingSessions)}
      />
      <ConfirmDialog
        open={resettingTwoFactor !== null}
        title={`Reset two-factor sign-in of ${resettingTwoFactor?.email ?? ""}?`}
        description="Their authenticator and recovery codes stop working and every session of theirs ends at once. They sign in with their password and set up two-factor again (at once if the policy requires it)."
        confirmLabel="Reset two-factor"
        pendingLabel="Resetting…"
        pending={resetTwoFactor.isPending}
        error={resetTwoFactor.error ? messageOf(resetTwoFactor.error) : null}
        onCancel={() => setResettingTwoFactor(null)}
        onConfirm={() => resettingTwoFactor && resetTwoFactor.mutate(resettingTwoFactor)}
      />
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.email ?? ""}?`}
        description={
          disabling?.userId === currentUserId
            ? "This is your own account: you will be signed out at once and cannot sign in until another admin enables you."
            : "They are signed out at once and cannot sign in until an admin enables them again. Their records stay."
        }
        confirmLabel="Disable user"
        pendingLabel="Disabling…"
        pending={setDisabled.isPending}
        error={setDisabled.error ? messageOf(setDisabled.error) : null}
        onCancel={() => setDisabling(null)}
        onConfirm={() => disabling && setDisabled.mutate({ user: disabling, disabled: true })}
      />
    </div>
  );
}
