"use client";
// "Add a user": email, name, role, an initial password given in person, and an optional licence number.
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { ErrorMessage } from "@/components/admin/notices";
import { RoleOptions } from "@/components/admin/users/role-options";
import { useUsersRefresh } from "@/components/admin/users/user-row";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { CreateUserWithLicenseSchema, MIN_PASSWORD_LENGTH } from "@/lib/users/user-inputs";

export function CreateUserForm({ onCreated }: { onCreated: (message: string) => void }) {
  const refresh = useUsersRefresh();
  const form = useSchemaForm(CreateUserWithLicenseSchema, {
    defaultValues: { email: "", name: "", role: "pharmacist", password: "", licenseNumber: "" },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["email", "name", "role", "password", "licenseNumber"], async (input) => {
    await apiFetch("/api/admin/users", { method: "POST", body: input });
    form.reset();
    onCreated(`User ${input.email} created as ${input.role}. Give them the password in person; they can sign in now.`);
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
      <div className="grid grid-cols-1 gap-2 md:grid-cols-5">
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
              <RoleOptions />
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
