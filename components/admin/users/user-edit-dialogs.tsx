"use client";
// The users screen's dialogs that ask for something: a new role, a licence number, a new password. Each is
// a hook (its form and confirmed action, kept by the screen so a row's button can open it) and the dialog.
import * as z from "zod";
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { RoleOptions } from "@/components/admin/users/role-options";
import { USER_ROLES } from "@/lib/users/roles";
import { ROLE_LABELS, useUsersRefresh, type UserRow } from "@/components/admin/users/user-row";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Field } from "@/components/ui/field";
import {
  LICENSE_RULE,
  LicenseInputSchema,
  MIN_PASSWORD_LENGTH,
  ResetPasswordInputSchema,
} from "@/lib/users/user-inputs";

const RoleFormSchema = z.object({ role: z.enum(USER_ROLES, { error: "Choose pharmacist or admin" }) });

type Done = (message: string) => void;

export function useRoleChange(onDone: Done) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(RoleFormSchema, { defaultValues: { role: "pharmacist" } });
  const action = useConfirmedAction({
    form: { form, fields: ["role"], valuesOf: (user: UserRow) => ({ role: user.role }) },
    run: async (user: UserRow, { role }) => {
      await apiFetch(`/api/admin/users/${user.userId}`, { method: "PATCH", body: { role } });
      return role;
    },
    onDone: async (role, user) => {
      onDone(
        role === user.role
          ? `${user.email} is already ${ROLE_LABELS[role].toLowerCase()}.`
          : `${user.email} is now ${ROLE_LABELS[role].toLowerCase()}; their open sessions were ended.`,
      );
      await refresh();
    },
  });
  return { action, form };
}

export function RoleDialog({
  change,
  currentUserId,
}: {
  change: ReturnType<typeof useRoleChange>;
  currentUserId: string;
}) {
  const { action, form } = change;
  return (
    <ConfirmDialog
      {...action.dialog}
      title={`Change the role of ${action.target?.email ?? ""}?`}
      description={
        action.target?.userId === currentUserId
          ? "This is your own account: you will be signed out at once and sign in again with the new role."
          : "Their open sessions end at once; they sign in again with the new role."
      }
      confirmLabel="Change role"
      pendingLabel="Changing…"
      variant="primary"
    >
      <Field label="New role" error={form.formState.errors.role?.message}>
        {(f) => (
          <select {...f} data-autofocus {...form.register("role")}>
            <RoleOptions />
          </select>
        )}
      </Field>
    </ConfirmDialog>
  );
}

export function useLicenseChange(onDone: Done) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(LicenseInputSchema, { defaultValues: { licenseNumber: "" } });
  const action = useConfirmedAction({
    form: {
      form,
      fields: ["licenseNumber"],
      valuesOf: (user: UserRow) => ({ licenseNumber: user.licenseNumber ?? "" }),
    },
    run: async (user: UserRow, { licenseNumber }) => {
      await apiFetch(`/api/admin/users/${user.userId}/license`, { method: "PUT", body: { licenseNumber } });
      return licenseNumber;
    },
    onDone: async (licenseNumber, user) => {
      onDone(
        licenseNumber
          ? `Licence number of ${user.email} set to ${licenseNumber}.`
          : `Licence number of ${user.email} cleared.`,
      );
      await refresh();
    },
  });
  return { action, form };
}

export function LicenseDialog({ change }: { change: ReturnType<typeof useLicenseChange> }) {
  const { action, form } = change;
  return (
    <ConfirmDialog
      {...action.dialog}
      title={`Licence number of ${action.target?.email ?? ""}`}
      description="Printed on the transfer records they approve from now on; records already approved keep the number they were made with. Leave it empty to clear it."
      confirmLabel="Save licence number"
      pendingLabel="Saving…"
      variant="primary"
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

export function usePasswordReset(onDone: Done) {
  const form = useSchemaForm(ResetPasswordInputSchema, { defaultValues: { password: "" } });
  const action = useConfirmedAction({
    form: { form, fields: ["password"] },
    run: (user: UserRow, { password }) =>
      apiFetch(`/api/admin/users/${user.userId}/password`, { method: "PUT", body: { password } }),
    onDone: (_data, user) => {
      form.reset();
      onDone(`Password of ${user.email} reset; their open sessions were ended.`);
    },
  });
  return { action, form };
}

export function PasswordDialog({ change }: { change: ReturnType<typeof usePasswordReset> }) {
  const { action, form } = change;
  return (
    <ConfirmDialog
      {...action.dialog}
      title={`Reset the password of ${action.target?.email ?? ""}?`}
      description="Their open sessions end at once and a sign-in lockout is lifted. Give them the new password in person."
      confirmLabel="Set new password"
      pendingLabel="Saving…"
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
