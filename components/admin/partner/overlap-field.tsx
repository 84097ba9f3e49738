// How long the old key or secret keeps working after a rotation, asked in the rotation's dialog.
import type { SchemaForm } from "@/components/forms/use-schema-form";
import { Field } from "@/components/ui/field";
import type { RotateApiKeyInputSchema } from "@/lib/partners/partner-inputs";

export function OverlapField({
  form,
  max,
  label,
}: {
  form: SchemaForm<typeof RotateApiKeyInputSchema>;
  max: number;
  label: string;
}) {
  const error = form.formState.errors.overlapHours?.message;
  return (
    <Field label={label} error={error} hint={`0 to ${max} hours; 0 ends it now.`}>
      {(f) => (
        <input
          {...f}
          type="number"
          min={0}
          max={max}
          step={1}
          inputMode="numeric"
          data-autofocus
          {...form.register("overlapHours")}
        />
      )}
    </Field>
  );
}
