// The admin screens' calls to /api/admin/**: the dashboard's fetch (problem+json errors as ApiError), and
// the server's field errors put next to the fields of a react-hook-form form.
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from "react-hook-form";
import { ApiError } from "@/components/dashboard/api-client";

export { apiFetch, ApiError } from "@/components/dashboard/api-client";

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message)
    return `The server could not be reached (${error.message}). Check the connection and try again.`;
  return "Something went wrong. Try again.";
}

/** A 400 naming fields puts each message on its field; anything else becomes the form's own error. */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): void {
  const problemFields =
    error instanceof ApiError ? (error.problem?.fields as { field: string; message: string }[] | undefined) : undefined;
  let placed = false;
  for (const f of problemFields ?? []) {
    if (fields.includes(f.field)) {
      setError(f.field as Path<T>, { type: "server", message: f.message });
      placed = true;
    }
  }
  if (!placed) setError("root.server" as Path<T>, { type: "server", message: messageOf(error) });
}

/** A form's submit handler: `run` with the parsed input; a failure is shown as showServerErrors shows it. */
export function submitShowingErrors<In extends FieldValues, Out>(
  form: UseFormReturn<In, unknown, Out>,
  fields: readonly (keyof In & string)[],
  run: (input: Out) => Promise<void>,
) {
  return form.handleSubmit(async (input) => {
    try {
      await run(input);
    } catch (err) {
      showServerErrors(err, form.setError, fields);
    }
  });
}
